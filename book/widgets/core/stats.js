// Summary statistics of timed samples, one definition for every widget and bench script, so that
// "median", "min" and "max" mean the same thing in every table and exported result.

/** The middle sample; for an even count, the mean of the two middle ones. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** `x` to `digits` decimals: timer ticks leave float noise that a table should not show. */
export function round(x, digits = 3) {
  return Math.round(x * 10 ** digits) / 10 ** digits;
}

/** The timing fields of a result row (the schema of benches/README.md) from its samples, rounded to `digits`. */
export function summary(samples, digits = 2) {
  return {
    median: round(median(samples), digits),
    min: round(Math.min(...samples), digits),
    max: round(Math.max(...samples), digits),
    samples: samples.length,
  };
}

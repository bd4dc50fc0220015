// Draws a widget's view — { message?, links?: [{text, href}], tables: [{caption, columns, rows}],
// chart?: {..., stacked?, series: [{label, data, color?}]} } — and exports it as Markdown. Links follow the message (relative hrefs
// resolve against the chapter page). Charts use Chart.js, served with the book (window.Chart).
const charts = new WeakMap();

function table({ caption, columns, rows }) {
  const t = document.createElement('table');
  t.className = 'fm-table';
  if (caption) t.createCaption().textContent = caption;
  const head = t.createTHead().insertRow();
  columns.forEach((c) => { const th = document.createElement('th'); th.textContent = c; head.append(th); });
  const body = t.createTBody();
  rows.forEach((row) => {
    const tr = body.insertRow();
    row.forEach((cell) => { tr.insertCell().textContent = String(cell); });
  });
  return t;
}

export function renderOutput(container, view) {
  charts.get(container)?.destroy();
  container.replaceChildren();
  if (view.message || view.links?.length) {
    const p = document.createElement('p');
    p.className = 'fm-message';
    p.textContent = view.message ?? '';
    (view.links ?? []).forEach(({ text, href }) => {
      const a = document.createElement('a');
      Object.assign(a, { href, textContent: text });
      p.append(' ', a);
    });
    container.append(p);
  }
  (view.tables ?? []).forEach((t) => container.append(table(t)));
  if (view.chart && view.chart.labels.length) {
    const box = document.createElement('div');
    box.className = 'fm-chart';
    const canvas = document.createElement('canvas');
    box.append(canvas);
    container.append(box);
    const { title, labels, series, logScale, yLabel, stacked = false } = view.chart;
    charts.set(container, new window.Chart(canvas, {
      type: 'bar',
      data: { labels, datasets: series.map((s) => ({ label: s.label, data: s.data, ...(s.color && { backgroundColor: s.color }) })) },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: { title: { display: !!title, text: title } },
        scales: {
          x: { stacked },
          y: { stacked, type: logScale ? 'logarithmic' : 'linear', title: { display: !!yLabel, text: yLabel } },
        },
      },
    }));
  }
}

const escapeCell = (c) => String(c).replaceAll('|', '\\|');

export function toMarkdown(result, view) {
  const lines = [`**${result.suite}** — ${result.device?.name ?? 'unknown device'}`
    + ` (${result.device?.backend ?? ''}), ${result.device?.browser ?? ''}`,
  `commit ${result.commit}, ${result.date}, verified: ${result.verified ? 'yes' : 'NO'}`, ''];
  if (view.message || view.links?.length) {
    lines.push([view.message, ...(view.links ?? []).map((l) => `[${l.text}](${l.href})`)].filter(Boolean).join(' '), '');
  }
  for (const t of view.tables ?? []) {
    if (t.caption) lines.push(`*${t.caption}*`, '');
    lines.push(`| ${t.columns.map(escapeCell).join(' | ')} |`, `|${t.columns.map(() => '---').join('|')}|`);
    t.rows.forEach((r) => lines.push(`| ${r.map(escapeCell).join(' | ')} |`));
    lines.push('');
  }
  return lines.join('\n');
}

/**
 * Milliseconds as the tables show them: whole from 100, one decimal from 10, else two.
 * @param {number} v
 */
export function msText(v) {
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
}

/**
 * A result's rows by curve and size, in the order they first appear: `[{curve, logn, rows}]`.
 * @param {{ params: { curve: string, log2_n: number } }[]} results
 */
export function byCurveAndSize(results) {
  /** @type {Map<string, { curve: string, logn: number, rows: any[] }>} */
  const groups = new Map();
  for (const r of results) {
    const key = `${r.params.curve}|${r.params.log2_n}`;
    if (!groups.has(key)) groups.set(key, { curve: r.params.curve, logn: r.params.log2_n, rows: [] });
    groups.get(key)?.rows.push(r);
  }
  return [...groups.values()];
}

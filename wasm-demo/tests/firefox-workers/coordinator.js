// A dedicated worker that starts three workers, waits for one message from each, terminates them
// and starts three more, for 200 rounds, reporting each round to the server (/log?round=N). The
// CPU pool of book/widgets/pool/ does the same when a widget starts and ends its pools.
const source = 'onmessage = () => postMessage(1);';
const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
(async () => {
  for (let round = 1; round <= 200; round++) {
    const workers = [0, 1, 2].map(() => new Worker(url));
    await Promise.all(workers.map((w) => new Promise((ok) => { w.onmessage = ok; w.postMessage(0); })));
    for (const w of workers) w.terminate();
    await fetch(`/log?round=${round}`);
  }
})();

// Renders ```mermaid blocks (turned into <pre class="mermaid"> by mdbook-mermaid) with the bundled script.
(() => {
  const dark = ['coal', 'navy', 'ayu'].some((t) => document.documentElement.classList.contains(t));
  mermaid.initialize({ startOnLoad: false, theme: dark ? 'dark' : 'default', securityLevel: 'strict' });
  mermaid.run({ querySelector: '.mermaid' }).then(
    () => document.documentElement.dataset.mermaid = 'done',
    (e) => { document.documentElement.dataset.mermaid = 'error'; console.error('mermaid:', e); },
  );
})();

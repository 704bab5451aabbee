// Display formulas broken again when their column changes width (Jupyter Book 1 loads every .js in _static/).
//
// MathJax 4 breaks a display formula to the width of its column when it typesets the page, and never again: a
// window made narrower, a tablet turned or a page laid out for print keeps the lines drawn for the first width,
// too wide (cut, scrolled) or too narrow (a tower). This asks MathJax to measure and break every formula again
// once the text column has kept a new width for a moment. window.melearnMathSettled() returns a promise that
// resolves when no such reflow is waiting or running, window.melearnMathPending() says whether one is (the
// browser tests wait for them before they measure).
(() => {
  const QUIET_MS = 150;
  let drawnFor = null; // the column width the formulas are broken for
  let timer = null;
  let waiting = null; // {promise, done} while a reflow is due or running
  const column = () => {
    const article = document.querySelector(".bd-article");
    return article ? Math.round(article.getBoundingClientRect().width) : window.innerWidth;
  };
  const mathjax = () => {
    const mj = window.MathJax;
    return mj && mj.startup && mj.startup.document && mj.startup.promise && mj._ ? mj : null;
  };
  const settleWaiting = () => {
    if (waiting) {
      waiting.done();
      waiting = null;
    }
  };
  const reflow = () => {
    timer = null;
    const mj = mathjax();
    const width = column();
    if (!mj || width === drawnFor) {
      settleWaiting();
      return;
    }
    drawnFor = width;
    const metrics = mj._.core.MathItem.STATE.METRICS; // from measuring the container on: the breaks too
    const doc = mj.startup.document;
    // after any typesetting under way, as MathJax's own typesetPromise chains its work
    mj.startup.promise = mj.startup.promise
      .then(() => (doc.rerenderPromise ? doc.rerenderPromise(metrics) : doc.rerender(metrics)))
      .catch((error) => console.warn("MathJax could not break the formulas again:", error))
      .then(() => {
        // the formulas drawn again are new elements: whatever marks them (the scroll stops) marks them again
        document.dispatchEvent(new Event("melearn-math-reflowed"));
        if (timer === null && column() === drawnFor) settleWaiting();
        else if (timer === null) schedule();
      });
  };
  const schedule = () => {
    if (!waiting) {
      let done;
      const promise = new Promise((resolve) => (done = resolve));
      waiting = { promise, done };
    }
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(reflow, QUIET_MS);
  };
  window.melearnMathSettled = () => {
    const mj = mathjax();
    const typeset = mj ? mj.startup.promise : Promise.resolve();
    return Promise.all([typeset, waiting ? waiting.promise : null]).then(() =>
      waiting ? window.melearnMathSettled() : undefined,
    );
  };
  window.melearnMathPending = () => waiting !== null;
  const start = () => {
    const mj = mathjax();
    const article = document.querySelector(".bd-article");
    if (!mj || !article || !window.ResizeObserver) return;
    mj.startup.promise.then(() => {
      drawnFor = column();
      new ResizeObserver(() => {
        if (column() !== drawnFor) schedule();
      }).observe(article);
    });
  };
  // MathJax's script is deferred: its startup exists once the document has been parsed
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start);
})();

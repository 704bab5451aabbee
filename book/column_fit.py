"""What "fits its column" means, measured in the browser: one script for the site's pages and the PDFs' one page.

:data:`FIT_JS` is a JavaScript function run in a page laid out at some width and media. It returns what a reader
would see cut or crowded there: each display formula (``display``: wide or not, the width it needs and has, whether
it scrolls in a box with a shadow that says so), each chain row and rule statement (``rows``), each reason or rule
heading cut (``cut``), each equation number drawn over its formula (``overlaps``), and the width each figure is
shown at (``figures``). Every finding names its ``page`` (a document such as ``chapters/auc``; ``''`` on a page of
the site, which is one page) and ``where`` it is (its section and first words); ``pages`` lists the documents the
one page of a PDF holds.

``tests/book/browser/test_fit.py`` runs it on every page of both sites, at a desktop and a phone width;
``book/build_pdf.py`` runs it on the one page it prints, laid out as on paper, and keeps the result beside the
PDF (``melearn-en.fit.json``), which the same tests read for paper.
"""

FIT_JS = r"""
() => {
  const article = document.querySelector('.bd-article') || document.querySelector('main') || document.body;
  const style = getComputedStyle(article);
  const box = article.getBoundingClientRect();
  const column = {left: box.left + parseFloat(style.paddingLeft), right: box.right - parseFloat(style.paddingRight)};
  // the page an element belongs to: in the one page of the PDF, each page of the book follows an empty
  // <span id="document-NAME"> (Sphinx's singlehtml); on a page of the site there is none ('')
  const page = (el) => {
    for (let s = el.closest('section'); s; s = s.parentElement && s.parentElement.closest('section')) {
      const mark = s.previousElementSibling;
      if (mark && mark.id && mark.id.startsWith('document-')) return mark.id.slice('document-'.length);
    }
    return '';
  };
  const where = (el) => {
    const section = el.closest('section[id]');
    // cut by code points, not UTF-16 units: half of a surrogate pair (a math italic letter) cannot be reported
    const text = Array.from((el.textContent || '').replace(/\s+/g, ' ').trim()).slice(0, 50).join('');
    return `${section ? '#' + section.id : 'page'}: "${text}"`;
  };
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const scroller = (el) => {
    for (let p = el; p && p !== article; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (['auto', 'scroll'].includes(s.overflowX)) return p;
    }
    return null;
  };
  const shows = (el) => {
    const s = scroller(el);
    return !!s && /gradient/.test(getComputedStyle(s).backgroundImage);
  };
  const display = [];
  for (const c of article.querySelectorAll('mjx-container[display="true"]')) {
    if (!visible(c) || c.closest('.melearn-chain, .melearn-rules')) continue;
    const math = c.querySelector('mjx-math');
    if (!math) continue;
    const m = math.getBoundingClientRect(), r = c.getBoundingClientRect();
    const wide = m.width > r.width + 1 || m.right > Math.min(r.right, column.right) + 1 || m.left < column.left - 1;
    display.push({page: page(c), where: where(c), wide, need: Math.round(m.width), room: Math.round(Math.min(r.width,
                  column.right - column.left)), scrolls: shows(c)});
  }
  const rows = [];
  for (const el of article.querySelectorAll('.melearn-chain .chain-expr, .melearn-chain .chain-lhs, ' +
                                            '.melearn-rules .rule-statement, .melearn-chain, .melearn-rules')) {
    if (!visible(el)) continue;
    const r = el.getBoundingClientRect();
    const holder = el.classList.contains('melearn-chain') || el.classList.contains('melearn-rules');
    let right = r.right;  // a step's pieces may reach past its box (it then scrolls); a whole chain's may not
    for (const m of holder ? [] : el.querySelectorAll('mjx-math')) {
      right = Math.max(right, m.getBoundingClientRect().right);
    }
    const wide = el.scrollWidth > el.clientWidth + 1 || right > column.right + 1;
    rows.push({page: page(el), where: where(el), wide, kind: el.className.split(' ')[0], scrolls: shows(el)});
  }
  const cut = [];
  for (const el of article.querySelectorAll('.chain-note, .chain-assumptions, .rule-head')) {
    if (!visible(el)) continue;
    const r = el.getBoundingClientRect();
    const holder = el.closest('.melearn-chain, .melearn-rules').getBoundingClientRect();
    if (r.right > Math.min(column.right, holder.right) + 1 || el.scrollWidth > el.clientWidth + 1) {
      cut.push({page: page(el), where: where(el)});
    }
  }
  const overlaps = [];
  for (const number of article.querySelectorAll('div.math > span.eqno')) {
    const c = number.parentElement.querySelector('mjx-container');
    const math = c && c.querySelector('mjx-math');
    if (!math || !visible(number)) continue;
    // the part of the formula a reader sees: clipped by its own box and by the block that holds the number
    const n = number.getBoundingClientRect(), m = math.getBoundingClientRect(), r = c.getBoundingClientRect();
    const b = number.parentElement.getBoundingClientRect();
    const left = Math.max(m.left, r.left, b.left), right = Math.min(m.right, r.right, b.right);
    const top = Math.max(m.top, r.top, b.top), bottom = Math.min(m.bottom, r.bottom, b.bottom);
    const on = n.left < right - 1 && n.right > left + 1 && n.top < bottom - 1 && n.bottom > top + 1;
    // beside a formula that is cut, the number reads as part of it: it must then be above or below it
    const cut = m.width > r.width + 1 || m.right > Math.min(r.right, b.right) + 1;
    const level = n.top < m.bottom - 1 && n.bottom > m.top + 1;
    if (on || (cut && level)) {
      overlaps.push({page: page(c), where: `${number.textContent.replace('#', '').trim()} on ${where(c)}`});
    }
  }
  // figures: the width each is shown at, against its own width (melearn.plotting draws every text at least 9 px
  // high when a figure is shown at least PHONE_FIGURE_PX wide, or at its natural size)
  const figures = [];
  for (const img of article.querySelectorAll('.cell_output img, figure img')) {
    if (!visible(img) || !img.naturalWidth) continue;
    const shown = Math.round(img.getBoundingClientRect().width);
    const holder = img.closest('.cell_output, figure') || img;
    figures.push({page: page(img), where: where(holder), shown, natural: img.naturalWidth});
  }
  const pages = Array.from(document.querySelectorAll('span[id^="document-"]'), (s) => s.id.slice('document-'.length));
  return {display, rows, cut, overlaps, figures, pages};
}
"""

/* The book's interactive explorers (melearn.explorers). Every number drawn or shown is in the
   JSON that melearn wrote into the page when it was built; this script only picks the state the controls name
   and draws it as SVG. It computes no statistic, loads nothing and needs no network. */
(function () {
  "use strict";
  if (window.melearnExplorers) return;
  var NS = "http://www.w3.org/2000/svg";

  function svgEl(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function $(root, name) { return root.querySelector('[data-mlx="' + name + '"]'); }
  function setText(root, name, text) { var e = $(root, name); if (e) e.textContent = text; }

  /* A plot frame in viewBox units: axes, ticks (values and their texts come from the JSON), axis labels. */
  function frame(svg, spec) {
    clear(svg);
    var fs = spec.font || 15, W = spec.width || 320, H = spec.height || 300;
    var L = Math.round(3 * fs + 21), R = 14, T = 12, B = Math.round(2 * fs + 18), font = "font-size:" + fs + "px";
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    var x0 = spec.x[0], x1 = spec.x[1], y0 = spec.y[0], y1 = spec.y[1];
    var f = {
      x: function (v) { return L + (v - x0) / (x1 - x0) * (W - L - R); },
      y: function (v) { return H - B - (v - y0) / (y1 - y0) * (H - T - B); },
      left: L, right: W - R, top: T, bottom: H - B
    };
    var id = svg.getAttribute("data-clip");
    if (id) {
      var defs = svgEl("defs", {}, svg);
      var clip = svgEl("clipPath", { id: id }, defs);
      svgEl("rect", { x: L, y: T, width: W - L - R, height: H - T - B }, clip);
    }
    var axes = svgEl("g", { "class": "mlx-axes" }, svg);
    (spec.xticks || []).forEach(function (t) {
      svgEl("line", { x1: f.x(t[0]), x2: f.x(t[0]), y1: T, y2: H - B, "class": "mlx-grid" }, axes);
      var tx = svgEl("text", { x: f.x(t[0]), y: H - B + fs + 3, "text-anchor": "middle", style: font }, axes);
      tx.textContent = t[1];
    });
    (spec.yticks || []).forEach(function (t) {
      svgEl("line", { x1: L, x2: W - R, y1: f.y(t[0]), y2: f.y(t[0]), "class": "mlx-grid" }, axes);
      var ty = svgEl("text", { x: L - 6, y: f.y(t[0]) + fs / 3, "text-anchor": "end", style: font }, axes);
      ty.textContent = t[1];
    });
    svgEl("rect", { x: L, y: T, width: W - L - R, height: H - T - B, "class": "mlx-box" }, axes);
    var xl = svgEl("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", "class": "mlx-label",
      style: font }, axes);
    xl.textContent = spec.xlabel;
    var yl = svgEl("text", { x: 0, y: 0, "text-anchor": "middle", "class": "mlx-label", style: font,
      transform: "translate(" + fs + "," + (T + H - B) / 2 + ") rotate(-90)" }, axes);
    yl.textContent = spec.ylabel;
    f.layer = svgEl("g", id ? { "clip-path": "url(#" + id + ")" } : {}, svg);
    return f;
  }
  function line(f, xs, ys, cls, parent) {
    var pts = xs.map(function (x, i) { return f.x(x).toFixed(1) + "," + f.y(ys[i]).toFixed(1); }).join(" ");
    return svgEl("polyline", { points: pts, "class": cls }, parent || f.layer);
  }
  function dot(f, x, y, r, cls, parent) {
    return svgEl("circle", { cx: f.x(x), cy: f.y(y), r: r, "class": cls }, parent || f.layer);
  }

  /* ---- one threshold, four views -------------------------------------------------------------------- */
  function threshold(root, data) {
    var L = data.labels, state = { set: 0, stop: 0, cost: data.cost_start, clicked: null };
    var select = $(root, "data"), slider = $(root, "slider"), costSlider = $(root, "cost");
    var ranked = $(root, "ranked");

    function current() { return data.sets[state.set]; }
    function buildRanked() {
      var set = current();
      clear(ranked);
      var group = null, lastStop = -1;
      set.samples.forEach(function (s, j) {
        if (s.stop !== lastStop) {
          group = document.createElement("span");
          group.className = "mlx-group";
          group.setAttribute("data-stop", s.stop);
          if (set.tied.indexOf(s.stop) >= 0) {
            group.classList.add("mlx-tied");
            group.setAttribute("title", L.tie);
          }
          ranked.appendChild(group);
          lastStop = s.stop;
        }
        var b = document.createElement("button");
        b.type = "button";
        b.className = "mlx-sample " + (s.label ? "mlx-pos" : "mlx-neg");
        b.setAttribute("data-stop", s.stop);
        b.setAttribute("data-sample", j);
        b.setAttribute("aria-label", s.name + ", " + L.score + " " + s.score_text + ", " +
          (s.label ? L.positive : L.negative) + ": " + L.cut_here);
        var n = document.createElement("span"); n.className = "mlx-name"; n.textContent = s.name;
        var v = document.createElement("span"); v.className = "mlx-score"; v.textContent = s.score_text;
        var c = document.createElement("span"); c.className = "mlx-class"; c.textContent = s.label ? "+" : "\u2212";
        b.appendChild(n); b.appendChild(v); b.appendChild(c);
        b.addEventListener("click", function () {
          state.stop = s.stop; state.clicked = j; slider.value = s.stop; draw();
        });
        group.appendChild(b);
      });
    }
    function drawCurves(set, st) {
      var stops = set.stops, k = state.stop;
      var pr = frame($(root, "pr"), data.pr_axes);
      for (var i = 2; i < stops.length; i++) {
        line(pr, [stops[i - 1].recall, stops[i].recall], [stops[i - 1].precision, stops[i].precision],
          "mlx-seg mlx-" + stops[i].kind);
      }
      for (i = 1; i < stops.length; i++) dot(pr, stops[i].recall, stops[i].precision, 3.5, "mlx-pt");
      if (k > 0) dot(pr, st.recall, st.precision, 9, "mlx-now");
      setText(root, "pr-note", k > 0 ? "(R, P) = (" + st.recall_shown + ", " + st.precision_shown + ")" : L.no_pr_point);

      var roc = frame($(root, "roc"), data.roc_axes);
      line(roc, [0, 1], [0, 1], "mlx-chance");
      for (i = 1; i < stops.length; i++) {
        line(roc, [stops[i - 1].fpr, stops[i].fpr], [stops[i - 1].tpr, stops[i].tpr], "mlx-seg mlx-" + stops[i].kind);
      }
      for (i = 0; i < stops.length; i++) dot(roc, stops[i].fpr, stops[i].tpr, 3.5, "mlx-pt");
      dot(roc, st.fpr, st.tpr, 9, "mlx-now");
      setText(root, "roc-note", "(FPR, TPR) = (" + st.fpr_shown + ", " + st.tpr_shown + ")");

      var c = set.costs[state.cost];
      var cp = frame($(root, "cost-plane"), data.cost_axes);
      for (i = 0; i < stops.length; i++) line(cp, [0, 1], [stops[i].fpr, stops[i].fnr], "mlx-faint");
      line(cp, [c.p_cost, c.p_cost], [0, 1], "mlx-pcost");
      line(cp, [0, 1], [st.fpr, st.fnr], "mlx-costline");
      dot(cp, c.p_cost, st.cost[state.cost], 8, "mlx-now");
    }
    function draw() {
      var set = current(), st = set.stops[state.stop], c = set.costs[state.cost];
      slider.max = set.stops.length - 1;
      slider.value = state.stop;
      slider.setAttribute("aria-valuetext", st.threshold_text);
      setText(root, "threshold", st.threshold_text);
      setText(root, "slider-value", st.threshold_short);
      Array.prototype.forEach.call(ranked.querySelectorAll(".mlx-group"), function (g) {
        var stop = +g.getAttribute("data-stop");
        g.classList.toggle("mlx-in", stop <= state.stop);
        g.classList.toggle("mlx-cut", stop === state.stop + 1);
      });
      Array.prototype.forEach.call(ranked.querySelectorAll(".mlx-sample"), function (b) {
        b.setAttribute("aria-pressed", +b.getAttribute("data-sample") === state.clicked ? "true" : "false");
      });
      ["tp", "fp", "fn", "tn"].forEach(function (n) { setText(root, n, String(st[n])); });
      setText(root, "precision", st.precision_text === null ? L.undefined_p : st.precision_text + " = " + st.precision_shown);
      setText(root, "recall", st.recall_text + " = " + st.recall_shown);
      setText(root, "f1", st.f1_text + " = " + st.f1_shown);
      setText(root, "tpr", st.recall_text + " = " + st.tpr_shown);
      setText(root, "fpr", st.fpr_text + " = " + st.fpr_shown);
      costSlider.setAttribute("aria-valuetext", c.ratio_text);
      setText(root, "ratio", c.ratio_text);
      setText(root, "cost-value", c.ratio_text);
      setText(root, "p-cost", c.p_cost_shown);
      setText(root, "cost-norm", st.cost_shown[state.cost]);
      setText(root, "best", c.best_text);
      drawCurves(set, st);
    }
    select.addEventListener("change", function () {
      /* another data set starts clean: nothing predicted positive, no sample pressed */
      state.set = +select.value;
      state.stop = 0;
      state.clicked = null;
      buildRanked();
      draw();
    });
    slider.addEventListener("input", function () { state.stop = +slider.value; state.clicked = null; draw(); });
    costSlider.addEventListener("input", function () { state.cost = +costSlider.value; draw(); });
    state.stop = data.start_stop;
    buildRanked();
    draw();
  }

  /* ---- the binomial test ---------------------------------------------------------------------------- */
  function binomial(root, data) {
    var ctl = { m: $(root, "m"), eps0: $(root, "eps0"), alpha: $(root, "alpha") };
    function draw() {
      var m = data.ms[+ctl.m.value], e = data.eps0s[+ctl.eps0.value], a = data.alphas[+ctl.alpha.value];
      var pm = data.pmf[m[0] + "|" + e[0]], t = data.tests[m[0] + "|" + e[0] + "|" + a[0]];
      ctl.m.setAttribute("aria-valuetext", m[1]);
      ctl.eps0.setAttribute("aria-valuetext", e[1]);
      ctl.alpha.setAttribute("aria-valuetext", a[1]);
      setText(root, "m-value", m[1]);
      setText(root, "eps0-value", e[1]);
      setText(root, "alpha-value", a[1]);
      setText(root, "alpha-again", a[1]);
      setText(root, "critical-count", String(t.critical_count));
      setText(root, "critical-value", t.critical_value_shown);
      setText(root, "size", t.size_shown);
      setText(root, "size-one-lower", t.size_one_lower_shown);
      var f = frame($(root, "pmf"), { x: pm.x, y: [0, pm.ymax], xticks: pm.xticks, yticks: pm.yticks,
        xlabel: data.labels.x, ylabel: data.labels.y, width: 480, height: 330, font: 21 });
      var w = Math.max(0.8 / m[0] / (pm.x[1] - pm.x[0]) * (f.right - f.left), 1);
      pm.p.forEach(function (p, i) {
        var x = f.x(i / m[0]);
        svgEl("rect", { x: x - w / 2, y: f.y(p), width: w, height: f.y(0) - f.y(p),
          "class": i > t.critical_count ? "mlx-reject" : "mlx-keep" }, f.layer);
      });
      line(f, [t.critical_value, t.critical_value], [0, pm.ymax], "mlx-critical");
    }
    ["m", "eps0", "alpha"].forEach(function (n) { ctl[n].addEventListener("input", draw); });
    draw();
  }

  /* ---- bias and variance ---------------------------------------------------------------------------- */
  function biasVariance(root, data) {
    var slider = $(root, "degree");
    function draw() {
      var k = +slider.value, st = data.states[k];
      slider.setAttribute("aria-valuetext", String(data.degrees[k]));
      setText(root, "degree-value", String(data.degrees[k]));
      ["bias2", "variance", "noise", "error", "cross"].forEach(function (n) { setText(root, n, st[n + "_shown"]); });
      var f = frame($(root, "curves"), data.curve_axes);
      var ds = data.degrees;
      ["bias2", "variance", "noise", "error"].forEach(function (n) {
        line(f, ds, data.states.map(function (s) { return s[n]; }), "mlx-bv mlx-" + n);
        data.states.forEach(function (s, i) { dot(f, ds[i], s[n], 3, "mlx-bvpt mlx-" + n); });
      });
      line(f, [ds[k], ds[k]], data.curve_axes.y, "mlx-critical");
      ["bias2", "variance", "error"].forEach(function (n) { dot(f, ds[k], st[n], 7, "mlx-now mlx-" + n); });
      var g = frame($(root, "fits"), data.fit_axes);
      st.fits.forEach(function (ys) { line(g, data.x, ys, "mlx-fit"); });
      line(g, data.x, data.y_true, "mlx-truth");
      line(g, data.x, st.mean_fit, "mlx-mean");
    }
    slider.addEventListener("input", draw);
    draw();
  }

  var kinds = { threshold: threshold, binomial: binomial, "bias-variance": biasVariance };
  window.melearnExplorers = function (id) {
    var root = document.getElementById(id);
    if (!root || root.getAttribute("data-ready")) return;
    var data = JSON.parse(root.querySelector("script.mlx-data").textContent);
    kinds[root.getAttribute("data-kind")](root, data);
    root.setAttribute("data-ready", "true");
  };
})();

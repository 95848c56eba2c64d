/*
 * The browser replay viewer (inlined into the HTML file by src/replay/html.ts). It reads the game
 * from the JSON block #replay-data: static tables and one compact delta per event (see frames.ts),
 * rebuilds any position from keyframes, and draws the board into the SVG. Every text that comes from
 * the log is set with textContent or setAttribute, never parsed as HTML.
 */
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('replay-data').textContent);
  var N = D.frames.length;
  var NM = D.models.length;
  var NU = D.units.length;
  var COL = ['#2563eb', '#dc2626'];
  var OBJ_R = 20 / 25.4;
  var $ = function (id) { return document.getElementById(id); };

  // --- positions: keyframes every K events, deltas in between -------------------------------------
  function emptyState() {
    return {
      x: new Array(NM).fill(null), y: new Array(NM).fill(null), w: D.models.map(function (m) { return m.w; }),
      ul: new Array(NU).fill('unplaced'), us: new Array(NU).fill(0), um: D.units.map(function () { return []; }), uf: new Array(NU).fill(''),
      h: [0, 0, 'setup', 0, 0, 0, 0], o: D.objectives.map(function () { return null; }), e: [], a: [],
    };
  }
  function clone(s) {
    return { x: s.x.slice(), y: s.y.slice(), w: s.w.slice(), ul: s.ul.slice(), us: s.us.slice(), um: s.um.slice(), uf: s.uf.slice(), h: s.h, o: s.o.slice(), e: s.e, a: s.a };
  }
  function applyDelta(s, d) {
    var k;
    if (d.m) for (k = 0; k < d.m.length; k += 4) { var i = d.m[k]; s.x[i] = d.m[k + 1]; s.y[i] = d.m[k + 2]; s.w[i] = d.m[k + 3]; }
    if (d.u) for (k = 0; k < d.u.length; k++) {
      var u = d.u[k];
      if (u.l !== undefined) s.ul[u.i] = u.l;
      if (u.s !== undefined) s.us[u.i] = u.s;
      if (u.m) s.um[u.i] = u.m;
      if (u.f !== undefined) s.uf[u.i] = u.f;
    }
    if (d.h) s.h = d.h;
    if (d.o) for (k = 0; k < d.o.length; k++) s.o[d.o[k][0]] = d.o[k][1];
    if (d.e) s.e = d.e;
    if (d.a) s.a = d.a;
  }
  var K = 64;
  var keys = [];
  (function () {
    var s = emptyState();
    keys.push(clone(s));
    for (var i = 1; i <= N; i++) {
      applyDelta(s, D.frames[i - 1][2]);
      if (i % K === 0) keys.push(clone(s));
    }
  })();
  function stateAt(p) {
    var k = Math.floor(p / K);
    var s = clone(keys[k]);
    for (var i = k * K + 1; i <= p; i++) applyDelta(s, D.frames[i - 1][2]);
    return s;
  }

  // --- the board ------------------------------------------------------------------------------------
  var svg = document.querySelector('#board svg');
  var NS = svg.namespaceURI;
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var a in attrs) e.setAttribute(a, String(attrs[a]));
    if (parent) parent.appendChild(e);
    return e;
  }
  var gCtrl = el('g', { id: 'rp-control' }, svg);
  var gRanges = el('g', { id: 'rp-ranges' }, svg);
  var gModels = el('g', { id: 'rp-models' }, svg);
  var gLabels = el('g', { id: 'rp-labels' }, svg);
  var ctrlRings = D.objectives.map(function (o) {
    return el('circle', { cx: o.x, cy: o.y, r: OBJ_R + 0.35, fill: 'none', 'stroke-width': 0.3, visibility: 'hidden' }, gCtrl);
  });
  var modelEls = D.models.map(function (m, i) {
    var b = m.base;
    var e;
    if (b[0] === 'c') e = el('circle', { cx: 0, cy: 0, r: b[1] }, gModels);
    else if (b[0] === 'o') e = el('ellipse', { cx: 0, cy: 0, rx: b[1], ry: b[2] }, gModels);
    else e = el('rect', { x: -b[1] / 2, y: -b[2] / 2, width: b[1], height: b[2] }, gModels);
    e.setAttribute('data-model', String(i));
    e.setAttribute('class', 'model');
    e.style.display = 'none';
    return e;
  });
  var labelEls = D.units.map(function (u) {
    var t = el('text', { 'font-size': 0.8, 'text-anchor': 'middle', fill: COL[u.player], stroke: '#fff', 'stroke-width': 0.15, 'paint-order': 'stroke', class: 'label' }, gLabels);
    t.style.display = 'none';
    return t;
  });
  // the static board's hatchways (Boarding Actions), numbered as D.hatchways
  var hatchEls = [];
  Array.prototype.forEach.call(svg.querySelectorAll('[data-hatchway]'), function (e) { hatchEls[Number(e.getAttribute('data-hatchway'))] = e; });
  function drawHatchways() {
    for (var i = 0; i < D.hatchways.length; i++) {
      var e = hatchEls[i];
      if (!e) continue;
      var open = cur.a.indexOf(i) >= 0;
      var look = open ? D.hatchwayLook.open : D.hatchwayLook.closed;
      e.setAttribute('fill-opacity', String(look.opacity));
      e.setAttribute('stroke-dasharray', look.dash);
      var t = e.querySelector('title');
      if (t) t.textContent = 'hatchway ' + D.hatchways[i] + (open ? ' (open)' : ' (closed)');
    }
  }
  function baseRadius(b) { return b[0] === 'c' ? b[1] : b[0] === 'o' ? Math.max(b[1], b[2]) : Math.hypot(b[1], b[2]) / 2; }

  // --- state of the page ----------------------------------------------------------------------------
  var pos = 0;
  var cur = emptyState();
  var modelUnit = new Array(NM).fill(-1);
  var hovered = -1;

  function unitName(i) {
    // an Attached unit: its own name and those of the units whose models it holds
    var names = [D.units[i].name];
    var m = cur.um[i];
    for (var k = 0; k < m.length; k++) {
      var o = D.models[m[k]].origin;
      if (o !== i && names.indexOf(D.units[o].name) < 0) names.push(D.units[o].name);
    }
    return names.join(' + ');
  }

  function drawBoard() {
    var hl = {};
    var d = pos > 0 ? D.frames[pos - 1][2] : {};
    if (d.x) for (var k = 0; k < d.x.length; k++) hl[d.x[k]] = true;
    modelUnit.fill(-1);
    for (var u = 0; u < NU; u++) {
      var list = cur.um[u];
      var sx = 0, n = 0, top = Infinity;
      var onTable = cur.ul[u] === 'battlefield';
      for (var j = 0; j < list.length; j++) {
        var mi = list[j];
        modelUnit[mi] = u;
        var e = modelEls[mi];
        var x = cur.x[mi], y = cur.y[mi];
        if (!onTable || x === null || cur.w[mi] < 0) { e.style.display = 'none'; continue; }
        e.style.display = '';
        var b = D.models[mi].base;
        if (b[0] === 'c') { e.setAttribute('cx', x); e.setAttribute('cy', y); }
        else e.setAttribute('transform', 'translate(' + x + ' ' + y + ') rotate(' + (b[3] * 180 / Math.PI) + ')');
        e.setAttribute('fill', COL[D.units[u].player]);
        e.setAttribute('fill-opacity', cur.us[u] ? '0.45' : '0.85');
        e.setAttribute('stroke', hl[u] ? '#f97316' : '#111');
        e.setAttribute('stroke-width', hl[u] ? '0.18' : '0.04');
        sx += x; n++;
        var ty = y - baseRadius(b);
        if (ty < top) top = ty;
      }
      var t = labelEls[u];
      if (n === 0) { t.style.display = 'none'; continue; }
      t.style.display = '';
      t.setAttribute('x', (sx / n).toFixed(2));
      t.setAttribute('y', Math.max(0.8, top - 0.3).toFixed(2));
      t.textContent = unitName(u) + (cur.us[u] ? ' (shocked)' : '');
    }
    // models of no unit (never happens in a consistent log): hidden
    for (var i = 0; i < NM; i++) if (modelUnit[i] < 0) modelEls[i].style.display = 'none';
    for (var o = 0; o < ctrlRings.length; o++) {
      var c = cur.o[o];
      if (c === null || c === undefined) ctrlRings[o].setAttribute('visibility', 'hidden');
      else { ctrlRings[o].setAttribute('visibility', 'visible'); ctrlRings[o].setAttribute('stroke', COL[c]); }
    }
    drawHatchways();
    drawRanges();
  }

  function drawRanges() {
    while (gRanges.firstChild) gRanges.removeChild(gRanges.firstChild);
    if (hovered < 0 || cur.ul[hovered] !== 'battlefield') return;
    var list = cur.um[hovered];
    var range = 0;
    for (var j = 0; j < list.length; j++) range = Math.max(range, D.units[D.models[list[j]].origin].maxRange);
    if (!range) return;
    for (j = 0; j < list.length; j++) {
      var mi = list[j];
      if (cur.x[mi] === null || cur.w[mi] < 0) continue;
      el('circle', { cx: cur.x[mi], cy: cur.y[mi], r: baseRadius(D.models[mi].base) + range, fill: 'none', stroke: COL[D.units[hovered].player], 'stroke-opacity': 0.35, 'stroke-width': 0.06, 'stroke-dasharray': '0.5 0.3' }, gRanges);
    }
  }

  // --- header, roster, details ------------------------------------------------------------------------
  function text(id, v) { $(id).textContent = String(v); }
  function drawHeader() {
    var h = cur.h;
    var where = h[2] === 'setup' ? 'Setup' : h[2] === 'ended' ? 'Game over (round ' + h[0] + ')' : 'Round ' + h[0] + ' · ' + D.players[h[1]].name + "'s turn · " + h[2] + ' phase';
    text('where', where);
    text('cp0', h[3]); text('cp1', h[4]); text('vp0', h[5]); text('vp1', h[6]);
    text('pos', pos + ' / ' + N);
    var r = D.result;
    var res = $('result');
    if (r && pos === N) {
      res.textContent = r.winner === null ? 'Draw ' + r.vp[0] + '-' + r.vp[1] : 'Winner: ' + D.players[r.winner].name + ' (' + r.vp[0] + '-' + r.vp[1] + ')' + (r.endedBy === 'army-destroyed' ? ', army destroyed' : ', after ' + r.rounds + ' rounds');
      res.style.display = '';
    } else res.style.display = 'none';
  }

  var rosterRows = [];
  function buildRoster() {
    var box = $('roster');
    for (var p = 0; p < 2; p++) {
      var col = document.createElement('div');
      col.className = 'rcol';
      var h = document.createElement('h3');
      h.textContent = D.players[p].name;
      h.style.color = COL[p];
      col.appendChild(h);
      for (var u = 0; u < NU; u++) {
        if (D.units[u].player !== p) continue;
        var row = document.createElement('div');
        row.className = 'runit';
        row.setAttribute('data-unit', String(u));
        col.appendChild(row);
        rosterRows[u] = row;
      }
      box.appendChild(col);
    }
    box.addEventListener('mouseover', function (ev) {
      var t = ev.target.closest('[data-unit]');
      if (t) hover(Number(t.getAttribute('data-unit')));
    });
  }
  function drawRoster() {
    for (var u = 0; u < NU; u++) {
      var row = rosterRows[u];
      var loc = cur.ul[u];
      if (loc === 'attached' || loc === 'unplaced' && cur.um[u].length === 0) { row.style.display = 'none'; continue; }
      row.style.display = '';
      var alive = 0;
      for (var j = 0; j < cur.um[u].length; j++) if (cur.w[cur.um[u][j]] >= 0) alive++;
      var st = loc === 'battlefield' ? '' : ' [' + loc + ']';
      row.textContent = unitName(u) + ' ' + alive + '/' + cur.um[u].length + st + (cur.us[u] && loc !== 'destroyed' ? ' shocked' : '');
      row.className = 'runit' + (loc === 'destroyed' ? ' dead' : '');
    }
  }

  function hover(u) {
    hovered = u;
    drawDetails();
    drawRanges();
  }
  function cell(tr, v, tag) { var c = document.createElement(tag || 'td'); c.textContent = v === null || v === undefined ? '-' : String(v); tr.appendChild(c); return c; }
  function table(head, rows) {
    var t = document.createElement('table');
    var tr = document.createElement('tr');
    head.forEach(function (h) { cell(tr, h, 'th'); });
    t.appendChild(tr);
    rows.forEach(function (r) { var row = document.createElement('tr'); r.forEach(function (v) { cell(row, v); }); t.appendChild(row); });
    return t;
  }
  function drawDetails() {
    var box = $('details');
    while (box.firstChild) box.removeChild(box.firstChild);
    if (hovered < 0) { box.textContent = 'Hover a unit on the board or in the roster for its details.'; return; }
    var u = D.units[hovered];
    var h = document.createElement('h3');
    h.textContent = unitName(hovered);
    h.style.color = COL[u.player];
    box.appendChild(h);
    var list = cur.um[hovered];
    var alive = list.filter(function (mi) { return cur.w[mi] >= 0; });
    var info = document.createElement('p');
    var fx = cur.e.filter(function (e) { return e[1] === hovered; }).map(function (e) { return e[0]; });
    info.textContent = D.players[u.player].name + ' · ' + u.id + ' · ' + cur.ul[hovered] + ' · ' + alive.length + '/' + list.length + ' models' +
      (cur.us[hovered] ? ' · Battle-shocked' : '') + (cur.uf[hovered] ? ' · this turn: ' + cur.uf[hovered] : '') + (fx.length ? ' · effects: ' + fx.join(', ') : '');
    box.appendChild(info);
    var wounds = document.createElement('p');
    wounds.className = 'wounds';
    wounds.textContent = 'Wounds: ' + list.map(function (mi) { return D.models[mi].name + ' ' + (cur.w[mi] < 0 ? 'dead' : cur.w[mi] + '/' + D.models[mi].w); }).join(', ');
    box.appendChild(wounds);
    var origins = [];
    list.forEach(function (mi) { var o = D.models[mi].origin; if (origins.indexOf(o) < 0) origins.push(o); });
    if (origins.length === 0) origins.push(hovered);
    origins.forEach(function (o) {
      var src = D.units[o];
      var cap = document.createElement('p');
      cap.className = 'ds';
      cap.textContent = src.datasheet + ' (' + src.points + ' pts) · ' + src.keywords.join(', ');
      box.appendChild(cap);
      box.appendChild(table(['Model', 'M', 'T', 'Sv', 'Inv', 'W', 'Ld', 'OC'], src.profiles.map(function (p) {
        return [p[0], p[1] + '"', p[2], p[3] + '+', p[4] ? p[4] + '+' : '-', p[5], p[6] + '+', p[7]];
      })));
      box.appendChild(table(['Weapon', 'Range', 'A', 'BS/WS', 'S', 'AP', 'D', 'Abilities'], src.weapons));
    });
  }

  // --- event list -------------------------------------------------------------------------------------
  var rows = [];
  function buildEvents() {
    var box = $('events');
    var frag = document.createDocumentFragment();
    for (var i = 1; i <= N; i++) {
      var f = D.frames[i - 1];
      var row = document.createElement('div');
      row.className = 'ev ' + f[1];
      row.setAttribute('data-i', String(i));
      var num = document.createElement('span');
      num.className = 'num';
      num.textContent = String(i);
      row.appendChild(num);
      var t = document.createElement('span');
      t.className = 'txt';
      t.textContent = f[0];
      row.appendChild(t);
      var d = f[2].d;
      if (d) {
        var dice = document.createElement('span');
        dice.className = 'dicebox';
        for (var k = 1; k < d.length; k++) {
          var die = document.createElement('span');
          die.className = 'die' + (d[0] === 6 && d[k] === 6 ? ' six' : d[0] === 6 && d[k] === 1 ? ' one' : '');
          die.textContent = String(d[k]);
          dice.appendChild(die);
        }
        row.appendChild(dice);
      }
      frag.appendChild(row);
      rows.push(row);
    }
    box.appendChild(frag);
    box.addEventListener('click', function (ev) {
      var t = ev.target.closest('[data-i]');
      if (t) seek(Number(t.getAttribute('data-i')));
    });
  }
  var curRow = null;
  function drawEvents() {
    if (curRow) curRow.classList.remove('cur');
    curRow = pos > 0 ? rows[pos - 1] : null;
    if (curRow) {
      curRow.classList.add('cur');
      var box = $('events');
      var top = curRow.offsetTop; // #events is the rows' offset parent
      if (top < box.scrollTop || top + curRow.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }

  // --- timeline ---------------------------------------------------------------------------------------
  var slider = $('slider');
  slider.max = String(N);
  function buildMarks() {
    var box = $('marks');
    D.marks.forEach(function (m) {
      var t = document.createElement('span');
      t.className = 'mark ' + m[1];
      t.style.left = (N ? (m[0] / N) * 100 : 0) + '%';
      t.setAttribute('title', m[2] + ' (event ' + m[0] + ')');
      t.setAttribute('data-pos', String(m[0]));
      if (m[1] === 'round') t.textContent = m[2].replace('round ', 'R');
      box.appendChild(t);
    });
    box.addEventListener('click', function (ev) {
      var t = ev.target.closest('[data-pos]');
      if (t) seek(Number(t.getAttribute('data-pos')));
    });
  }
  var phaseMarks = D.marks.filter(function (m) { return m[1] !== 'round'; }).map(function (m) { return m[0]; });
  function nextPhase() { for (var i = 0; i < phaseMarks.length; i++) if (phaseMarks[i] > pos) return seek(phaseMarks[i]); seek(N); }
  function prevPhase() { for (var i = phaseMarks.length - 1; i >= 0; i--) if (phaseMarks[i] < pos) return seek(phaseMarks[i]); seek(Math.min(1, N)); }

  function seek(p) {
    p = Math.max(0, Math.min(N, Math.floor(p)));
    if (p === pos + 1) applyDelta(cur, D.frames[p - 1][2]);
    else if (p !== pos) cur = stateAt(p);
    pos = p;
    slider.value = String(p);
    drawBoard();
    drawHeader();
    drawRoster();
    drawEvents();
    if (hovered >= 0) drawDetails();
    if (!timer) showInAddress();
  }

  // the address follows the position (game.html#812), so a moment of the game can be bookmarked or sent;
  // replaced, not pushed (the Back button leaves the page), and not while playing (browsers throttle
  // address changes made many times a second)
  function showInAddress() {
    if (location.hash === '#' + pos) return;
    try { history.replaceState(null, '', '#' + pos); } catch (e) { /* an address that cannot change: no matter */ }
  }
  function positionInAddress() {
    var m = /^#(\d+)$/.exec(location.hash);
    return m ? Math.min(N, Number(m[1])) : null;
  }
  window.addEventListener('hashchange', function () { var p = positionInAddress(); if (p !== null && p !== pos) seek(p); });

  var timer = null;
  function setPlaying(on) {
    if (timer) { clearInterval(timer); timer = null; }
    if (on) {
      if (pos >= N) seek(Math.min(1, N));
      timer = setInterval(function () { if (pos >= N) setPlaying(false); else seek(pos + 1); }, 1000 / Number($('speed').value));
    }
    if (!on) showInAddress();
    $('play').textContent = on ? 'Pause' : 'Play';
    $('play').setAttribute('aria-label', on ? 'pause' : 'play');
  }

  $('first').addEventListener('click', function () { seek(Math.min(1, N)); });
  $('prevphase').addEventListener('click', prevPhase);
  $('prev').addEventListener('click', function () { seek(pos - 1); });
  $('play').addEventListener('click', function () { setPlaying(!timer); });
  $('next').addEventListener('click', function () { seek(pos + 1); });
  $('nextphase').addEventListener('click', nextPhase);
  $('last').addEventListener('click', function () { seek(N); });
  $('speed').addEventListener('change', function () { if (timer) setPlaying(true); });
  slider.addEventListener('input', function () { seek(Number(slider.value)); });
  ['dice', 'decision', 'other'].forEach(function (c) {
    $('show-' + c).addEventListener('change', function (ev) { $('events').classList.toggle('hide-' + c, !ev.target.checked); });
  });
  document.addEventListener('keydown', function (ev) {
    if (ev.target && (ev.target.tagName === 'INPUT' || ev.target.tagName === 'SELECT')) return;
    if (ev.key === 'ArrowRight') seek(pos + 1);
    else if (ev.key === 'ArrowLeft') seek(pos - 1);
    else if (ev.key === 'ArrowDown') nextPhase();
    else if (ev.key === 'ArrowUp') prevPhase();
    else if (ev.key === 'Home') seek(Math.min(1, N));
    else if (ev.key === 'End') seek(N);
    else if (ev.key === ' ') setPlaying(!timer);
    else return;
    ev.preventDefault();
  });
  gModels.addEventListener('mouseover', function (ev) {
    var t = ev.target.closest('[data-model]');
    if (t) { var u = modelUnit[Number(t.getAttribute('data-model'))]; if (u >= 0) hover(u); }
  });

  // --- start ------------------------------------------------------------------------------------------
  text('title', D.title);
  for (var p = 0; p < 2; p++) {
    text('pname' + p, D.players[p] ? D.players[p].name : '');
    text('agent' + p, D.players[p] ? D.players[p].agent : '');
  }
  if (D.problems.length) { $('problems').textContent = D.problems.join(' · '); $('problems').style.display = ''; }
  buildRoster();
  buildEvents();
  buildMarks();
  drawDetails();
  var start = positionInAddress();
  seek(start === null ? Math.min(1, N) : start);
  window.strategiumReplay = { seek: seek, length: N, get position() { return pos; }, nextPhase: nextPhase, prevPhase: prevPhase };
})();

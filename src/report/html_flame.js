/*
 * html_flame.js - the flame graphs of copyscope's HTML report: turns each
 * figure of class flame (its data a script of type application/json,
 * written by src/report/html_plots_flame.c: the folded stacks of the
 * profile view as `show --folded` prints them) into an interactive
 * d3-flame-graph.  Bundled after d3-flame-graph and the d3 modules it
 * needs into the binary at build time; the report embeds it only where
 * it has a flame graph.
 *
 * Two kinds:
 *   flame      one profile: a frame per distinct path from the root, its
 *              width its samples (those of the stacks through it).
 *   flamediff  two profiles (ab: A and B; compare: base and new): the
 *              shape is the second side's (its samples give the widths),
 *              the colour the change of the frame's self share from the
 *              first side to the second (red: more of the samples,
 *              blue: fewer); the tooltip holds both sides' counts and,
 *              where the spec carries them ("ci": an ab run's paired
 *              change of each frame's ns per op, by path), the frame's
 *              change with its 95% CI; else it says there is no CI.
 *
 * After drawing, each figure says what it drew, read back from the SVG
 * (data-drawn: the chart's width, the root's value and per frame its
 * path, its value, x, width and fill as drawn, and for a diff both
 * sides' counts; data-gone: the frames left out, those only the first
 * side of a diff has), and the page says how many flame graphs it has and drew
 * (data-flames, data-flames-drawn), so that a test in a real browser can
 * check the frames against the stored counts.
 */
(function () {
	'use strict';

	var CELL = 18;

	function pct(n, of) {
		return of > 0 ? (100 * n / of).toFixed(1) + '%' : '-';
	}

	/* ns with 3 significant digits and its unit, as the text's. */
	function ns(v) {
		var u = ['ns', 'us', 'ms', 's'], i = 0;

		while (Math.abs(v) >= 1000 && i < u.length - 1) {
			v /= 1000;
			i++;
		}
		return (Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3)) +
			' ' + u[i];
	}

	/*
	 * The tree of the folded stacks of sides[0..]: a node per distinct
	 * path from the root ("all"), with per side cnt[k] the samples of
	 * the stacks through it and slf[k] those that end at it (its self);
	 * not n, v, c or d: d3-flame-graph reads those as a compact node's
	 * name, value, children and delta.
	 */
	function tree(sides) {
		var ns0 = sides.map(function () { return 0; });
		var root = { name: 'all', cnt: ns0.slice(), slf: ns0.slice(),
			children: [], kids: {} };

		sides.forEach(function (side, k) {
			side.stacks.forEach(function (st) {
				var frames = st[0].split(';'), c = st[1];
				var node = root;

				root.cnt[k] += c;
				frames.forEach(function (name, i) {
					var ch = node.kids[name];

					if (!ch) {
						ch = { name: name, cnt: ns0.slice(),
							slf: ns0.slice(), children: [],
							kids: {} };
						node.kids[name] = ch;
						node.children.push(ch);
					}
					ch.cnt[k] += c;
					if (i === frames.length - 1)
						ch.slf[k] += c;
					node = ch;
				});
			});
		});
		return root;
	}

	/*
	 * The tree for d3-flame-graph: value = side k's samples; frames side
	 * k does not have are left out (counted into gone[0]).
	 */
	function prune(node, k, gone) {
		delete node.kids;
		node.value = node.cnt[k];
		node.children = node.children.filter(function (ch) {
			if (ch.cnt[k] > 0)
				return true;
			gone[0]++;
			return false;
		});
		node.children.forEach(function (ch) { prune(ch, k, gone); });
		return node;
	}

	function path(d) {
		var p = [];

		for (; d && d.parent; d = d.parent)
			p.unshift(d.data.name);
		return p.join(';');
	}

	function label1(spec) {
		var t = spec.total;

		return function (d) {
			var n = d.data.cnt[0], s = d.data.slf[0];
			var l = d.data.name + ': ' + n + ' of ' + t +
				' samples (' + pct(n, t) + '), self ' + s +
				' (' + pct(s, t) + ')';

			if (spec.op_ns > 0)
				l += '; ' + ns(n / t * spec.op_ns) + '/op in it, ' +
					ns(s / t * spec.op_ns) + '/op self ' +
					'(share x ' + ns(spec.op_ns) + ' per op)';
			return l;
		};
	}

	/* The change of a frame's self share from side 0 to side 1. */
	function dself(d, ta, tb) {
		return d.slf[1] / tb - d.slf[0] / ta;
	}

	function labelDiff(spec) {
		var a = spec.sides[0], b = spec.sides[1];

		return function (d) {
			var x = d.data, ds = 100 * dself(x, a.total, b.total);
			var dt = 100 * (x.cnt[1] / b.total - x.cnt[0] / a.total);

			return x.name + ': ' + b.name + ' ' + x.cnt[1] + ' of ' +
				b.total + ' samples (' + pct(x.cnt[1], b.total) +
				'), self ' + x.slf[1] + ' (' +
				pct(x.slf[1], b.total) + '); ' + a.name + ' ' +
				x.cnt[0] + ' of ' + a.total + ' (' +
				pct(x.cnt[0], a.total) + '), self ' + x.slf[0] +
				' (' + pct(x.slf[0], a.total) + '); change ' +
				(dt >= 0 ? '+' : '') + dt.toFixed(1) +
				' points in it, ' + (ds >= 0 ? '+' : '') +
				ds.toFixed(1) + ' self. ' + ciText(spec, d);
		};
	}

	/* The frame's paired change with its CI (ab), else why none. */
	function ciText(spec, d) {
		var c = spec.ci ? spec.ci[path(d)] : null;
		var a = spec.sides[0].name, b = spec.sides[1].name;

		function sg(v) {
			return (v >= 0 ? '+' : '-') + ns(Math.abs(v));
		}
		if (c)
			return b + ' - ' + a + ' in it: ' + sg(c[0]) +
				'/op, 95% CI ' + sg(c[1]) + '..' + sg(c[2]) +
				' (paired over ' + c[3] + ' rounds)';
		if (spec.ci)
			return 'No CI for this frame: it has no samples ' +
				'in the rounds the diff keeps';
		return 'Counts, not a CI: one pooled profile per side, no ' +
			'spread between rounds is stored';
	}

	/* White at no change, red (more) and blue (fewer) at the most. */
	function diffColor(spec, max) {
		var ta = spec.sides[0].total, tb = spec.sides[1].total;

		return function (d, orig) {
			if (d.highlight)
				return orig;
			var v = max > 0 ? dself(d.data, ta, tb) / max : 0;
			var f = Math.round(235 * (1 - Math.min(1, Math.abs(v))));

			if (v > 0)
				return 'rgb(255,' + f + ',' + f + ')';
			if (v < 0)
				return 'rgb(' + f + ',' + f + ',255)';
			return 'rgb(235,235,235)';
		};
	}

	function maxChange(node, ta, tb) {
		var m = Math.abs(dself(node, ta, tb));

		node.children.forEach(function (ch) {
			m = Math.max(m, maxChange(ch, ta, tb));
		});
		return m;
	}

	/* The frames as drawn, read back from the SVG. */
	function drawn(el, diff) {
		var out = [];

		d3.select(el).selectAll('g.frame').each(function (d) {
			var r = this.querySelector('rect');
			var t = /translate\(([-0-9.e]+)/.exec(
				this.getAttribute('transform') || '');
			var row = [path(d), d.value, t ? +t[1] : null,
				r && r.hasAttribute('width') ?
				+r.getAttribute('width') : null,
				r ? r.getAttribute('fill') : null];

			if (diff)
				row.push(d.data.cnt[0], d.data.cnt[1]);
			out.push(row);
		});
		return out;
	}

	function controls(fig, chart, legend) {
		var bar = document.createElement('div');
		var input = document.createElement('input');
		var reset = document.createElement('button');

		bar.className = 'flame-controls';
		input.type = 'search';
		input.placeholder = 'search a function';
		input.addEventListener('input', function () {
			if (input.value)
				chart.search(input.value);
			else
				chart.clear();
		});
		reset.type = 'button';
		reset.textContent = 'reset zoom';
		reset.addEventListener('click', function () {
			chart.resetZoom();
		});
		bar.appendChild(input);
		bar.appendChild(reset);
		bar.appendChild(document.createTextNode(
			' click a frame to zoom into it; hover for its counts' +
			legend));
		fig.insertBefore(bar, fig.querySelector('.flamegraph'));
	}

	/*
	 * Run draw with every d3 transition it starts of no duration, then
	 * flush d3's timers: the frames have their final widths and labels
	 * when it returns, not after an animation that a headless browser
	 * (or a page printed at once) may never run to its end.  The
	 * widths are still the library's: only the animation is left out.
	 */
	function drawNow(draw) {
		var proto = d3.selection.prototype, orig = proto.transition;

		proto.transition = function () {
			return orig.apply(this, arguments).duration(0);
		};
		try {
			draw();
			d3.timerFlush();
		} finally {
			proto.transition = orig;
		}
	}

	var figs = document.querySelectorAll('figure.flame');
	var done = 0;
	var h = document.documentElement;

	h.setAttribute('data-flames', figs.length);
	Array.prototype.forEach.call(figs, function (fig) {
		var spec = JSON.parse(fig.querySelector(
			'script[type="application/json"]').textContent);
		var el = fig.querySelector('.flamegraph');
		var details = fig.querySelector('.flame-details');
		var diff = spec.kind === 'flamediff';
		var sides = diff ? spec.sides : [spec];
		var root = tree(sides), gone = [0], legend = '', max = 0;
		var w = Math.max(400, Math.floor(el.clientWidth || 1200));
		var chart = flamegraph.default().width(w).cellHeight(CELL)
			.transitionDuration(0).minFrameSize(0).sort(true)
			.selfValue(false);

		if (diff) {
			max = maxChange(root, sides[0].total, sides[1].total);
			chart.setLabelHandler(labelDiff(spec)).setColorMapper(
				diffColor(spec, max));
			prune(root, 1, gone);
			legend = '. Deepest red: +' + (100 * max).toFixed(1) +
				' points of the self share, deepest blue: -' +
				(100 * max).toFixed(1) + ' (the largest change ' +
				'here). ' + gone[0] + ' frame' +
				(gone[0] === 1 ? '' : 's') + ' only ' +
				sides[0].name + ' has, not drawn';
		} else {
			chart.setLabelHandler(label1(spec));
			prune(root, 0, gone);
		}
		if (details)
			chart.setDetailsElement(details);
		drawNow(function () {
			d3.select(el).datum(root).call(chart);
		});
		controls(fig, chart, legend);
		fig.setAttribute('data-gone', gone[0]);
		/* read the frames back once no node has a transition left
		   (d3 deletes a node's __transition when its last one ends):
		   at once after drawNow(), else frame by frame; after 1200
		   frames (20 s) as they are */
		var frames = 0;
		var next = window.requestAnimationFrame ?
			function (f) { window.requestAnimationFrame(f); } :
			function (f) { setTimeout(f, 16); };

		(function check() {
			var rects = el.querySelectorAll('g.frame rect');
			var ready = Array.prototype.every.call(
				el.querySelectorAll('g.frame, g.frame *'),
				function (e) { return !e.__transition; }) &&
				Array.prototype.every.call(rects, function (r) {
					return r.hasAttribute('width');
				});

			if (!ready && ++frames < 1200) {
				next(check);
				return;
			}
			var root = d3.select(el).datum();

			fig.setAttribute('data-drawn', JSON.stringify({
				width: w, total: root.value,
				frames: drawn(el, diff) }));
			fig.setAttribute('data-frames', rects.length);
			done++;
			h.setAttribute('data-flames-drawn', done);
		})();
	});
})();

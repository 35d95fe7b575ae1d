/*
 * html_charts.js - the glue of copyscope's HTML report: turns each
 * chart's data (a <script type="application/json"> inside its <figure>,
 * written by src/report/html_plots.c) into a Chart.js chart.  Bundled
 * after Chart.js and chartjs-chart-matrix into the binary at build time.
 *
 * After drawing, each figure says what it drew (data-points; data-gaps:
 * the points left out as withheld headlines; data-ink:
 * the canvas pixels that are not blank; data-axes: each numeric axis's
 * range and tick labels as drawn; data-drawn, for a history: its
 * medians, change points and kernel labels as drawn), and the page says how
 * many charts it has and drew (data-charts, data-rendered), so that a
 * test in a real browser can check every chart is there and not empty.
 */
(function () {
	'use strict';

	var COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd',
		'#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
	var VERDICT = { better: '#2ca02c', worse: '#d62728', same: '#7f7f7f',
		info: '#9467bd' };

	function color(i, alpha) {
		var c = COLORS[i % COLORS.length];
		var r = parseInt(c.substr(1, 2), 16);
		var g = parseInt(c.substr(3, 2), 16);
		var b = parseInt(c.substr(5, 2), 16);

		return 'rgba(' + r + ',' + g + ',' + b + ',' + alpha + ')';
	}

	/* Numbers as the text report prints them: 3 significant digits. */
	function num(v) {
		var a = Math.abs(v);

		if (v === 0)
			return '0';
		if (a >= 1000)
			return Math.round(v).toString();
		var t = v.toPrecision(3);

		/* trailing zeros of a fraction only: 400 stays 400 */
		return t.indexOf('.') >= 0 && t.indexOf('e') < 0 ?
			t.replace(/\.?0+$/, '') : t;
	}

	function base() {
		return {
			animation: false,
			responsive: true,
			maintainAspectRatio: false,
			plugins: { legend: { labels: { boxWidth: 12 } } }
		};
	}

	function axis(title, log) {
		return {
			type: log ? 'logarithmic' : 'linear',
			title: { display: !!title, text: title },
			ticks: { callback: function (v) { return num(v); } }
		};
	}

	/* An x axis whose ticks are the swept values, labelled as given. */
	function valueAxis(spec) {
		var a = axis(spec.xlabel, spec.xlog);

		a.afterBuildTicks = function (scale) {
			scale.ticks = spec.ticks.map(function (t) {
				return { value: t.x };
			});
		};
		a.ticks.callback = function (v) {
			for (var i = 0; i < spec.ticks.length; i++)
				if (spec.ticks[i].x === v)
					return spec.ticks[i].label;
			return '';
		};
		return a;
	}

	/* Size sweeps: a line per group, its 95% CI as a band. */
	function sweep(spec) {
		var ds = [];

		spec.series.forEach(function (s, i) {
			ds.push({ label: s.name + ' CI hi', band: true,
				data: s.points.map(function (p) {
					return { x: p.x, y: p.hi };
				}),
				borderWidth: 0, pointRadius: 0, fill: false });
			ds.push({ label: s.name + ' CI lo', band: true,
				data: s.points.map(function (p) {
					return { x: p.x, y: p.lo };
				}),
				borderWidth: 0, pointRadius: 0, fill: '-1',
				backgroundColor: color(i, 0.2) });
			ds.push({ label: s.name, data: s.points.map(function (p) {
					return { x: p.x, y: p.y };
				}),
				borderColor: color(i, 1), backgroundColor: color(i, 1),
				pointRadius: 3, fill: false });
		});
		var o = base();

		o.scales = { x: valueAxis(spec), y: axis(spec.ylabel, spec.ylog) };
		o.plugins.legend.labels.filter = function (item, data) {
			return !data.datasets[item.datasetIndex].band;
		};
		return { type: 'line', data: { datasets: ds }, options: o };
	}

	/* Cell text of the heat map. */
	var cellText = {
		id: 'cellText',
		afterDatasetsDraw: function (chart) {
			var meta = chart.getDatasetMeta(0);
			var ctx = chart.ctx;

			if (chart.config.type !== 'matrix')
				return;
			ctx.save();
			ctx.textAlign = 'center';
			ctx.textBaseline = 'middle';
			ctx.font = '12px sans-serif';
			meta.data.forEach(function (el, i) {
				var d = chart.data.datasets[0].data[i];
				var c = el.getCenterPoint();

				ctx.fillStyle = d.f > 0.55 ? '#fff' : '#000';
				ctx.fillText(d.text, c.x, c.y);
			});
			ctx.restore();
		}
	};

	/* E2's writers x readers: a heat map of the medians. */
	function heatmap(spec) {
		var lo = spec.min, hi = spec.max;
		var data = spec.cells.map(function (c) {
			var f = hi > lo ? (c.v - lo) / (hi - lo) : 1;

			return { x: spec.cols[c.c], y: spec.rows[c.r], v: c.v, f: f,
				text: num(c.v) + (c.sd !== null ? ' ±' +
					num(c.sd) + '%' : '') };
		});
		var n = { x: spec.cols.length, y: spec.rows.length };
		var o = base();

		o.plugins.legend.display = false;
		o.plugins.tooltip = { callbacks: { label: function (c) {
			var d = c.raw;

			return spec.ylabel + '=' + d.y + ' ' + spec.xlabel + '=' +
				d.x + ': ' + d.text + ' ' + spec.unit;
		} } };
		o.scales = {
			x: { type: 'category', labels: spec.cols, offset: true,
				grid: { display: false },
				title: { display: true, text: spec.xlabel } },
			y: { type: 'category', labels: spec.rows, offset: true,
				grid: { display: false },
				title: { display: true, text: spec.ylabel } }
		};
		return { type: 'matrix', plugins: [cellText], options: o,
			data: { datasets: [{ data: data,
				backgroundColor: function (c) {
					var d = c.dataset.data[c.dataIndex];

					return 'rgba(31,119,180,' +
						(0.15 + 0.85 * d.f) + ')';
				},
				borderColor: '#fff', borderWidth: 1,
				width: function (c) {
					var a = c.chart.chartArea;

					return a ? a.width / n.x - 2 : 10;
				},
				height: function (c) {
					var a = c.chart.chartArea;

					return a ? a.height / n.y - 2 : 10;
				} }] } };
	}

	/* Per-op latency: percentile plots, both axes logarithmic. */
	function percentile(spec) {
		var ticks = [1, 2, 10, 100, 1000, 10000, 100000, 1000000];
		var names = ['0%', '50%', '90%', '99%', '99.9%', '99.99%',
			'99.999%', '99.9999%'];
		var o = base();
		var x = axis('percentile', true);

		x.afterBuildTicks = function (scale) {
			scale.ticks = ticks.filter(function (t) {
				return t <= scale.max;
			}).map(function (t) { return { value: t }; });
		};
		x.ticks.callback = function (v) {
			var i = ticks.indexOf(v);

			return i < 0 ? '' : names[i];
		};
		x.min = 1;
		o.scales = { x: x, y: axis(spec.ylabel, true) };
		return { type: 'line', options: o, data: {
			datasets: spec.series.map(function (s, i) {
				return { label: s.name, data: s.points.map(function (p) {
						return { x: 1 / (1 - p.q), y: p.y };
					}),
					borderColor: color(i, 1),
					backgroundColor: color(i, 1),
					pointRadius: 1.5, stepped: 'before', fill: false };
			}) } };
	}

	/* Every sample over its configuration's median. */
	function scatter(spec) {
		var groups = {
			none: { label: 'sample', color: 'rgba(80,80,80,0.7)',
				style: 'circle', data: [] },
			lo: { label: 'low cluster (bimodal)', color: color(0, 0.9),
				style: 'circle', data: [] },
			hi: { label: 'high cluster (bimodal)', color: color(1, 0.9),
				style: 'circle', data: [] },
			flag: { label: 'flagged (not quiet)', color: '#d62728',
				style: 'crossRot', data: [] }
		};
		var o = base();

		spec.points.forEach(function (p) {
			var k = p.flag ? 'flag' : p.mode ? p.mode : 'none';
			var x = p.c + (p.n > 1 ? (p.i / (p.n - 1) - 0.5) * 0.6 : 0);

			groups[k].data.push({ x: x, y: p.y });
		});
		o.scales = {
			x: { type: 'linear', min: -0.5, max: spec.configs.length - 0.5,
				afterBuildTicks: function (scale) {
					scale.ticks = spec.configs.map(function (c, i) {
						return { value: i };
					});
				},
				ticks: { autoSkip: false, callback: function (v) {
					return spec.configs[v] || '';
				} },
				title: { display: true, text: spec.xlabel } },
			y: axis(spec.ylabel, false)
		};
		return { type: 'scatter', options: o, data: {
			datasets: ['none', 'lo', 'hi', 'flag'].filter(function (k) {
				return groups[k].data.length > 0;
			}).map(function (k) {
				var g = groups[k];

				return { label: g.label, data: g.data,
					backgroundColor: g.color, borderColor: g.color,
					pointStyle: g.style,
					pointRadius: k === 'flag' ? 6 : 3 };
			}) } };
	}

	/* A least-squares fit: its points and its line. */
	function fit(spec) {
		var ds = [];
		var xs = [];

		spec.groups.forEach(function (g) {
			g.points.forEach(function (p) { xs.push(p[0]); });
		});
		var lo = Math.min.apply(null, xs), hi = Math.max.apply(null, xs);

		spec.groups.forEach(function (g, i) {
			ds.push({ type: 'scatter', label: g.name + ' (points)',
				data: g.points.map(function (p) {
					return { x: p[0], y: p[1] };
				}),
				backgroundColor: color(i, 1), pointRadius: 4 });
			if (!g.line)
				return;
			var line = [];

			for (var k = 0; k <= 40; k++) {
				var x = spec.xlog ? lo * Math.pow(hi / lo, k / 40) :
					lo + (hi - lo) * k / 40;

				line.push({ x: x, y: g.line[0] + g.line[1] * x });
			}
			ds.push({ type: 'line', label: g.name + ' (fit)', data: line,
				borderColor: color(i, 0.8), pointRadius: 0,
				borderDash: [6, 3], fill: false });
		});
		var o = base();

		o.scales = { x: valueAxis(spec), y: axis(spec.ylabel, spec.ylog) };
		return { type: 'scatter', data: { datasets: ds }, options: o };
	}

	/* --explain: where the time goes (per 64 KiB for the pipe, per
	   byte for the per-byte recipe), a stacked bar per block. */
	function explain(spec) {
		var o = base();

		o.indexAxis = 'y';
		o.scales = {
			x: { stacked: true, title: { display: true,
				text: spec.xlabel } },
			y: { stacked: true }
		};
		return { type: 'bar', options: o, data: {
			labels: spec.bars.map(function (b) { return b.label; }),
			datasets: spec.segments.map(function (name, i) {
				return { label: name, backgroundColor: color(i, 0.85),
					data: spec.bars.map(function (b) {
						return b.values[i];
					}) };
			}) } };
	}

	/* A comparison: %change with its CI per row, coloured by verdict. */
	function forest(spec) {
		var o = base();
		var cols = spec.rows.map(function (r) {
			return VERDICT[r.verdict] || '#7f7f7f';
		});

		o.indexAxis = 'y';
		o.plugins.legend.display = false;
		o.scales = {
			x: { title: { display: true, text: spec.xlabel },
				grid: { color: function (c) {
					return c.tick && c.tick.value === 0 ?
						'#000' : 'rgba(0,0,0,0.1)';
				} } },
			y: { ticks: { autoSkip: false } }
		};
		return { type: 'bar', options: o, data: {
			labels: spec.rows.map(function (r) { return r.label; }),
			datasets: [{ type: 'bar', label: '95% CI',
				data: spec.rows.map(function (r) {
					return [r.lo, r.hi];
				}),
				backgroundColor: cols, barThickness: 4 },
			{ type: 'line', label: '%change', showLine: false,
				data: spec.rows.map(function (r) { return r.change; }),
				pointRadius: 5, pointStyle: 'rectRot',
				backgroundColor: cols, borderColor: cols }] } };
	}

	/* A paired A/B run: per-round %change of B and of the control
	   against A, with the estimate and its CI as lines. */
	function ab(spec) {
		var o = base();
		var n = spec.rounds;
		var col = VERDICT[spec.verdict] || '#7f7f7f';

		function level(v) {
			return [{ x: 0.5, y: v }, { x: n + 0.5, y: v }];
		}
		function pts(a) {
			return a.map(function (p) { return { x: p[0], y: p[1] }; });
		}
		var ds = [
			{ type: 'scatter', label: 'B against A, per round',
				data: pts(spec.ratios), backgroundColor: col,
				pointRadius: 3 },
			{ type: 'scatter', label: "A' against A (control)",
				data: pts(spec.control),
				backgroundColor: 'rgba(0,0,0,0.35)',
				pointStyle: 'crossRot', pointRadius: 4,
				borderColor: 'rgba(0,0,0,0.5)' }
		];
		if (spec.estimate !== null)
			ds.push({ type: 'line', label: 'estimate', data:
				level(spec.estimate), borderColor: col,
				pointRadius: 0, fill: false });
		if (spec.lo !== null)
			ds.push({ type: 'line', label: '95% CI', data:
				level(spec.lo), borderColor: col, borderDash: [6, 3],
				pointRadius: 0, fill: false });
		if (spec.hi !== null)
			ds.push({ type: 'line', label: '95% CI (high)', data:
				level(spec.hi), borderColor: col, borderDash: [6, 3],
				pointRadius: 0, fill: false });
		o.scales = {
			x: { type: 'linear', min: 0.5, max: n + 0.5,
				title: { display: true, text: 'round' },
				ticks: { callback: function (v) { return num(v); } } },
			y: axis(spec.ylabel, false)
		};
		return { type: 'scatter', data: { datasets: ds }, options: o };
	}

	/* A comparison row: each run's median in time order, by side. */
	function strip(spec) {
		var o = base();
		var n = spec.points.length;

		o.scales = {
			x: { type: 'linear', min: 0.5, max: n + 0.5,
				title: { display: true, text: spec.xlabel },
				afterBuildTicks: function (scale) {
					scale.ticks = spec.points.map(function (p) {
						return { value: p.x };
					});
				},
				ticks: { autoSkip: true, callback: function (v) {
					return num(v);
				} } },
			y: axis(spec.ylabel, false)
		};
		return { type: 'scatter', options: o, data: {
			datasets: ['base', 'new'].map(function (side, i) {
				return { label: side, pointRadius: 5,
					pointStyle: i ? 'rectRot' : 'circle',
					backgroundColor: color(i, 0.9),
					borderColor: color(i, 1),
					data: spec.points.filter(function (p) {
						return p.side === side;
					}).map(function (p) {
						return { x: p.x, y: p.y };
					}) };
			}) } };
	}

	/* A log2 histogram (the kernel views): a bar per bin, labelled as
	   the text labels it, a colour per series. */
	function log2(spec) {
		var o = base();

		o.plugins.legend.display = spec.series.length > 1;
		o.scales = {
			x: { type: 'category', title: { display: true,
				text: spec.xlabel } },
			y: axis(spec.ylabel, false)
		};
		return { type: 'bar', options: o, data: {
			labels: spec.bins.map(function (b) { return b.label; }),
			datasets: spec.series.map(function (s, i) {
				return { label: s.name, data: s.counts,
					backgroundColor: color(i, 0.85) };
			}) } };
	}

	/* The share of the wall time in each system call. */
	function syscall(spec) {
		var o = base();

		o.indexAxis = 'y';
		o.plugins.legend.display = false;
		o.scales = {
			x: axis(spec.xlabel, false),
			y: { type: 'category', ticks: { autoSkip: false } }
		};
		return { type: 'bar', options: o, data: {
			labels: spec.bars.map(function (b) { return b.label; }),
			datasets: [{ label: '% of the wall time',
				backgroundColor: color(0, 0.85),
				data: spec.bars.map(function (b) {
					return b.share;
				}) }] } };
	}

	/* A history's change points: a dashed line where each starts,
	   its %change written beside it. */
	function changeLines(changes) {
		return { id: 'changeLines', afterDatasetsDraw: function (chart) {
			var x = chart.scales.x, area = chart.chartArea;
			var ctx = chart.ctx;

			ctx.save();
			ctx.font = '12px sans-serif';
			changes.forEach(function (c) {
				var px = x.getPixelForValue(c.x - 0.5);

				ctx.strokeStyle = c.worse ? VERDICT.worse :
					VERDICT.better;
				ctx.fillStyle = ctx.strokeStyle;
				ctx.setLineDash([4, 3]);
				ctx.beginPath();
				ctx.moveTo(px, area.top);
				ctx.lineTo(px, area.bottom);
				ctx.stroke();
				ctx.fillText((c.pct > 0 ? '+' : '') +
					c.pct.toFixed(1) + '%', px + 4,
					area.top + 14);
			});
			ctx.restore();
		} };
	}

	/* A lab's history: the run medians of one series in order, their
	   CI as a band, the change points marked, the kernels on top. */
	function history(spec) {
		var o = base();
		var n = spec.points.length;
		var last = n > 1 ? n - 0.5 : 0.5;

		function kernel(v) {
			for (var i = 0; i < spec.kernels.length; i++)
				if (spec.kernels[i].x === v)
					return spec.kernels[i].label;
			return '';
		}
		o.plugins.legend.labels.filter = function (item, data) {
			return !data.datasets[item.datasetIndex].band;
		};
		o.scales = {
			x: { type: 'linear', min: -0.5, max: last,
				title: { display: true, text: spec.xlabel },
				afterBuildTicks: function (scale) {
					/* the points only: not the ends at -0.5 */
					scale.ticks = scale.ticks.filter(function (t) {
						return t.value === Math.round(t.value);
					});
				},
				ticks: { precision: 0, callback: function (v) {
					return num(v);
				} } },
			k: { type: 'linear', position: 'top', min: -0.5,
				max: last, grid: { drawOnChartArea: false },
				title: { display: true,
					text: 'kernel, where it changes' },
				afterBuildTicks: function (scale) {
					scale.ticks = spec.kernels.map(function (k) {
						return { value: k.x };
					});
				},
				ticks: { autoSkip: false, maxRotation: 30,
					callback: kernel } },
			y: axis(spec.ylabel, false)
		};
		function xy(key) {
			return spec.points.map(function (p) {
				return { x: p.x, y: p[key] };
			});
		}
		return { type: 'line', plugins: [changeLines(spec.changes)],
			options: o,
			data: { datasets: [
				{ label: '95% CI hi', band: true, data: xy('hi'),
					borderWidth: 0, pointRadius: 0,
					fill: false },
				{ label: '95% CI lo', band: true, data: xy('lo'),
					borderWidth: 0, pointRadius: 0,
					fill: '-1', backgroundColor: color(0, 0.2) },
				{ label: 'run median', data: xy('y'),
					borderColor: color(0, 1),
					backgroundColor: color(0, 1),
					pointRadius: n > 200 ? 0 : 3, fill: false },
				{ label: 'change point', showLine: false,
					pointStyle: 'triangle', pointRadius: 8,
					backgroundColor: spec.changes.map(
						function (c) {
							return c.worse ?
								VERDICT.worse :
								VERDICT.better;
						}),
					data: spec.changes.map(function (c) {
						return { x: c.x,
							y: spec.points[c.x].y };
					}) }] } };
	}

	/* What a history chart drew, for a test to check against the data:
	   the medians, the change points' x and the kernel axis' ticks. */
	function historyDrawn(chart) {
		return { medians: chart.data.datasets[2].data.map(function (p) {
				return p.y;
			}),
			changes: chart.data.datasets[3].data.map(function (p) {
				return p.x;
			}),
			kernels: chart.scales.k.ticks.map(function (t) {
				return { x: t.value, label: String(t.label) };
			}) };
	}

	var KINDS = { sweep: sweep, heatmap: heatmap, percentile: percentile,
		scatter: scatter, fit: fit, explain: explain, forest: forest,
		ab: ab, strip: strip, log2: log2, syscall: syscall,
		history: history };
	var DRAWN = { history: historyDrawn };

	/* Pixels of the canvas that are not blank. */
	function ink(canvas) {
		var d = canvas.getContext('2d').getImageData(0, 0, canvas.width,
			canvas.height).data;
		var n = 0;

		for (var i = 3; i < d.length; i += 4)
			if (d[i] !== 0)
				n++;
		return n;
	}

	/* Each numeric axis as drawn: its range and its tick labels, so that
	   a test can check the labels against the data they stand for. */
	function axes(chart) {
		return Object.keys(chart.scales).filter(function (id) {
			var t = chart.scales[id].type;

			return t === 'linear' || t === 'logarithmic';
		}).map(function (id) {
			var s = chart.scales[id];

			return { id: id, type: s.type, min: s.min, max: s.max,
				labels: s.ticks.map(function (t) {
					return String(t.label);
				}) };
		});
	}

	/* the points drawn: a null y (a withheld headline) is a gap */
	function points(cfg) {
		return cfg.data.datasets.reduce(function (a, d) {
			return a + d.data.filter(function (p) {
				return p === null || typeof p !== 'object' ||
				       p.y !== null;
			}).length;
		}, 0);
	}

	/* the gaps: points with a null y, each a withheld headline */
	function gaps(cfg) {
		return cfg.data.datasets.reduce(function (a, d) {
			return a + d.data.filter(function (p) {
				return p !== null && typeof p === 'object' &&
				       p.y === null;
			}).length;
		}, 0);
	}

	var figs = document.querySelectorAll('figure.plot');
	var drawn = 0;

	document.documentElement.setAttribute('data-charts', figs.length);
	Array.prototype.forEach.call(figs, function (fig) {
		var spec = JSON.parse(fig.querySelector(
			'script[type="application/json"]').textContent);
		var canvas = fig.querySelector('canvas');
		var cfg = KINDS[spec.kind](spec);
		var folded = [];

		/* a chart folded under <details> is drawn open, then folded
		   again: it has its size when the reader unfolds it */
		for (var d = fig.parentNode; d; d = d.parentNode)
			if (d.tagName === 'DETAILS' && !d.open) {
				d.open = true;
				folded.push(d);
			}
		var chart = new Chart(canvas, cfg);

		fig.setAttribute('data-points', points(cfg));
		fig.setAttribute('data-gaps', gaps(cfg));
		fig.setAttribute('data-ink', ink(canvas));
		fig.setAttribute('data-axes', JSON.stringify(axes(chart)));
		if (DRAWN[spec.kind])
			fig.setAttribute('data-drawn',
				JSON.stringify(DRAWN[spec.kind](chart)));
		folded.forEach(function (e) { e.open = false; });
		drawn++;
	});
	document.documentElement.setAttribute('data-rendered', drawn);
})();

import { describe, expect, it } from 'vitest';
import { runBatch } from '../../src/sim/batch.ts';
import { renderBatchHtml, scriptJson } from '../../src/sim/report-html.ts';
import { csvRow, formatBatchSummary } from '../../src/sim/batch-report.ts';
import { batchScenario, batchSpec } from './helpers.ts';

describe('batch reports', () => {
  it('escape names in the HTML page and in its chart data, and quote them in CSV', async () => {
    const sc = batchScenario();
    const evil = '</script><script>alert("x")</script> & <b>';
    sc.players[0].name = evil;
    sc.players[0].army.units[0].name = '<img src=x onerror=alert(1)>';
    const o = await runBatch(batchSpec({ scenario: sc, games: 2, blockSize: 2 }), { workers: 0 });
    const html = renderBatchHtml(o);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;');
    // exactly the three script elements of the page: Chart.js, the chart data, the glue
    expect(html.match(/<script/g)).toHaveLength(3);
    expect(scriptJson({ a: '</script>' })).toBe('{"a":"\\u003c/script>"}');
    expect(formatBatchSummary(o)).toContain(evil);
    const row = csvRow(o.spec, { index: 0, seed: 'a,"b', swapped: false, winner: 0, vp: [1, 2], vpByRound: [[], []], rounds: 1, endedBy: 'rounds', first: 0, cpGained: [0, 0], cpSpent: [0, 0], stratagems: [{}, {}], units: [[], []], events: 3 });
    expect(row.startsWith('0,"a,""b",false,"</script><script>alert(""x"")</script> & <b>",1,1,2,')).toBe(true);
  });

  it('say why CP per game can be below uses per game (a discounted or free use), in the summary and the page', async () => {
    const o = await runBatch(batchSpec({ games: 2, blockSize: 2 }), { workers: 0 });
    const rate = { count: 1, n: 2, rate: 0.5, ci95: [0.1, 0.9] as [number, number] };
    // the played games' own uses left out (a discounted use of theirs would say it already)
    for (const a of o.stats.armies) a.stratagems = [];
    o.stats.armies[0].stratagems = [{ name: 'GO TO GROUND', uses: 2, usesPerGame: 1, games: rate, offered: null, cpPerGame: 1 }];
    expect(formatBatchSummary(o)).not.toContain('some uses cost less');
    expect(renderBatchHtml(o)).not.toContain('some uses cost less');
    o.stats.armies[0].stratagems = [{ name: 'GO TO GROUND', uses: 2, usesPerGame: 1, games: rate, offered: null, cpPerGame: 0.5 }];
    expect(formatBatchSummary(o)).toContain('some uses cost less');
    expect(renderBatchHtml(o)).toContain('some uses cost less');
  });

  it('name every bar of a long horizontal chart: fifteen stratagems get the room and keep every label', async () => {
    const o = await runBatch(batchSpec({ games: 2, blockSize: 2 }), { workers: 0 });
    const rate = { count: 1, n: 2, rate: 0.5, ci95: [0.1, 0.9] as [number, number] };
    for (const a of o.stats.armies) a.stratagems = [];
    o.stats.armies[0].stratagems = Array.from({ length: 15 }, (_, k) => ({ name: `STRATAGEM ${k}`, uses: 2, usesPerGame: 1, games: rate, offered: null, cpPerGame: 1 }));
    const html = renderBatchHtml(o);
    // 26px a bar and 60px for the title and axis: 450px, where the 300px default fitted ten
    expect(html).toContain('<div class="chart" style="height: 450px"><canvas id="c-strat-0"></canvas></div>');
    const charts = JSON.parse(/<script id="chart-data" type="application\/json">(.*?)<\/script>/s.exec(html)![1]) as { id: string; config: { data: { labels: string[] }; options: { scales?: { y?: { ticks?: { autoSkip?: boolean } } } } } }[];
    const strat = charts.find((c) => c.id === 'c-strat-0')!;
    expect(strat.config.data.labels).toHaveLength(15);
    expect(strat.config.options.scales?.y?.ticks?.autoSkip).toBe(false);
    // and the units' two charts, horizontal too
    for (const id of ['c-value-0', 'c-surv-0']) expect(charts.find((c) => c.id === id)!.config.options.scales?.y?.ticks?.autoSkip, id).toBe(false);
  });
});

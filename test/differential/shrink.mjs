// Shrinking divergences: each round tries the one-step-smaller queries of every divergence (generator.mjs's
// shrinkCandidates) and keeps, per divergence, the smallest one that still diverges the same way. The engines are
// behind `answer`, so that the script asks Flink for a whole round in one JVM run and a unit test can put a
// deliberately broken engine there. Sluice answers first: a candidate whose Sluice side cannot give the divergence's
// verdict (Sluice fails where it answered, or answers where it failed) is dropped before Flink sees it.
import { materialize, verdictIn } from './compare.mjs';
import { ordered, render, shrinkCandidates } from './generator.mjs';

/**
 * Shrinks `divergences` (each `{ q, sql, verdict, flink, sluice }`) and returns them with `min`: the smallest query
 * found that gives the same verdict, with both answers. `engines.sluice(sqls)` and `engines.flink(sqls)` run the
 * queries on one engine each and resolve to their answers (`{ rows }` or `{ error }`) in the same order; `mode` is the
 * runtime mode they run in (streaming answers are compared as materialized changelogs).
 */
export async function shrinkAll(divergences, engines, { rounds = 3, maxCandidates = 40, mode = 'batch', log = () => {} } = {}) {
  const current = divergences.map((d) => ({ ...d, min: { q: d.q, sql: d.sql, flink: d.flink, sluice: d.sluice } }));
  for (let round = 1; round <= rounds && current.length > 0; round++) {
    const tries = [];
    for (const c of current) {
      const seen = new Set();
      // At most maxCandidates per divergence and round: the first ones drop whole items and clauses.
      for (const cand of shrinkCandidates(c.min.q)) {
        if (seen.size >= maxCandidates) break;
        const sql = render(cand);
        if (sql.length >= c.min.sql.length || seen.has(sql)) continue;
        seen.add(sql);
        tries.push({ owner: c, q: cand, sql });
      }
    }
    if (tries.length === 0) break;
    const mine = await engines.sluice(tries.map((t) => t.sql));
    const kept = tries.map((t, k) => ({ ...t, sluice: mine[k] })).filter((t) => ((mode === 'streaming' ? materialize(t.sluice) : t.sluice).error !== undefined) === (t.owner.verdict === 'sluice-error'));
    const theirs = kept.length > 0 ? await engines.flink(kept.map((t) => t.sql)) : [];
    let improved = 0;
    kept.forEach((t, k) => {
      const flink = theirs[k];
      const sluice = t.sluice;
      if (verdictIn(mode, flink, sluice, ordered(t.q), t.sql) !== t.owner.verdict) return;
      if (t.sql.length < t.owner.min.sql.length) {
        t.owner.min = { q: t.q, sql: t.sql, flink, sluice };
        improved++;
      }
    });
    log(`shrink round ${round}: ${tries.length} candidates, ${kept.length} sent to Flink, ${improved} smaller divergences`);
    if (improved === 0) break;
  }
  return current;
}

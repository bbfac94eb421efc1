import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformFileSync } from '@swc/core';

interface LimitDecision {
  /** The factor V8's own policy chose, from the collector's speed against the promotion rate. */
  ownFactor: string;
  /** The factor the old generation's new limit was computed with. */
  appliedFactor: string;
}

/**
 * Runs a fresh Node process that applies the policy, keeps about 40 MiB alive and forces two full
 * collections, and reads V8's verbose GC trace: each full collection prints the factor its own
 * policy chose and then the new limit with the factor that was applied. Jest's process cannot show
 * this: the flag would change its own heap, and the trace goes to the process's standard output.
 */
function limitDecisions(percent: number): LimitDecision[] {
  const folder = mkdtempSync(join(tmpdir(), 'heap-policy-'));
  try {
    const { code } = transformFileSync(join(__dirname, 'heap-policy.ts'), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    const compiled = join(folder, 'heap-policy.js');
    writeFileSync(compiled, code);
    const script = `
      require(${JSON.stringify(compiled)}).applyHeapGrowingPercent(${percent});
      globalThis.live = Array.from({ length: 1e6 }, (_, index) => ({ index }));
      gc();
      gc();`;
    const child = spawnSync(process.execPath, ['--trace-gc-verbose', '--expose-gc', '-e', script], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(child.status).toBe(0);
    const decisions: LimitDecision[] = [];
    let ownFactor = '';
    for (const line of child.stdout.split('\n')) {
      const own = /\[HeapController\] factor ([\d.]+) based on/.exec(line);
      if (own) ownFactor = own[1];
      const limit = /\[HeapController\] Limit: .* \(([\d.]+)\)$/.exec(line);
      if (limit) decisions.push({ ownFactor, appliedFactor: limit[1] });
    }
    return decisions;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('applyHeapGrowingPercent', () => {
  it('makes every full collection set the next limit at the given growth past the live data', () => {
    const decisions = limitDecisions(30);
    expect(decisions.length).toBeGreaterThanOrEqual(2);
    for (const decision of decisions) expect(decision.appliedFactor).toBe('1.3');
  });

  it("leaves V8's own factor in place at 0", () => {
    const decisions = limitDecisions(0);
    expect(decisions.length).toBeGreaterThanOrEqual(2);
    for (const decision of decisions) expect(decision.appliedFactor).toBe(decision.ownFactor);
  });
});

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
 * Runs `script` in a fresh Node process with the policy compiled at `policy` in scope (`policy`),
 * and returns its standard output. Jest's process cannot show these decisions: the flags would change
 * its own heap, and V8's traces go to the process's standard output.
 */
function runWithPolicy(script: string, nodeFlags: string[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'heap-policy-'));
  try {
    const { code } = transformFileSync(join(__dirname, 'heap-policy.ts'), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    const compiled = join(folder, 'heap-policy.js');
    writeFileSync(compiled, code);
    const child = spawnSync(
      process.execPath,
      [...nodeFlags, '-e', `const policy = require(${JSON.stringify(compiled)});\n${script}`],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    expect(child.status).toBe(0);
    return child.stdout;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Applies the growing percent, keeps about 40 MiB alive and forces two full collections, and reads
 * V8's verbose GC trace: each full collection prints the factor its own policy chose and then the
 * new limit with the factor that was applied.
 */
function limitDecisions(percent: number): LimitDecision[] {
  const stdout = runWithPolicy(
    `policy.applyHeapGrowingPercent(${percent});
      globalThis.live = Array.from({ length: 1e6 }, (_, index) => ({ index }));
      gc();
      gc();`,
    ['--trace-gc-verbose', '--expose-gc'],
  );
  const decisions: LimitDecision[] = [];
  let ownFactor = '';
  for (const line of stdout.split('\n')) {
    const own = /\[HeapController\] factor ([\d.]+) based on/.exec(line);
    if (own) ownFactor = own[1];
    const limit = /\[HeapController\] Limit: .* \(([\d.]+)\)$/.exec(line);
    if (limit) decisions.push({ ownFactor, appliedFactor: limit[1] });
  }
  return decisions;
}

/**
 * Applies the pretenuring policy, then keeps every object of three allocation sites alive, so that
 * each survives its young collections: the case in which V8 decides to pretenure a site. Returns the
 * decisions V8's pretenuring statistics print ("=> tenure" is a site moved to the old generation).
 */
function tenureDecisions(enabled: boolean): string[] {
  const stdout = runWithPolicy(
    `policy.applyHeapPretenuring(${enabled});
      const kept = [];
      const make = (index) => ({ index, list: [index], inner: { index } });
      for (let index = 0; index < 3e5; index += 1) kept.push(make(index));`,
    // The young generation pinned small, so that the loop takes many scavenges: V8 decides a site
    // "tenure" only after an earlier scavenge found it "maybe tenure", and how many scavenges the loop
    // takes depends on how far V8 let the young generation grow (one CI run had a single round:
    // "maybe tenure" three times, no "tenure"). With 1 MiB, 8 of 8 runs had 3 to 21 "tenure" with 3e6
    // objects, and 25 of 25 had 6 to 27 with 3e5, which takes a sixth of the CPU (0.4 against 2.5 s).
    ['--trace-pretenuring-statistics', '--max-semi-space-size=1'],
  );
  return stdout.split('\n').flatMap((line) => /=> (tenure|maybe tenure|don't tenure)/.exec(line)?.[1] ?? []);
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

describe('applyHeapPretenuring', () => {
  it("leaves V8's allocation-site pretenuring on when enabled: surviving sites are tenured", () => {
    expect(tenureDecisions(true)).toContain('tenure');
  });

  it('turns it off otherwise: no site is considered for the old generation', () => {
    expect(tenureDecisions(false)).toEqual([]);
  });
});

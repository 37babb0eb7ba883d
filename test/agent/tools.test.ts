/**
 * The programs an agent reports in its host facts (agent/machineMetrics.ts): executable files of schema/tools.ts's list
 * on its PATH.
 */
import test from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createMetricsSampler, toolsOnPath } from '../../agent/machineMetrics.ts';
import { heartbeatEvent } from '../../schema/agentEvents.ts';

test('only executable regular files of the known list count, from absolute PATH entries', (t) => {
  const first = mkdtempSync(join(tmpdir(), 'gsm-tools-'));
  const second = mkdtempSync(join(tmpdir(), 'gsm-tools-'));
  writeFileSync(join(first, 'curl'), '#!/bin/sh\n');
  chmodSync(join(first, 'curl'), 0o755);
  writeFileSync(join(first, 'jq'), 'not executable');
  chmodSync(join(first, 'jq'), 0o644);
  mkdirSync(join(first, 'tar'));
  writeFileSync(join(second, 'unzip'), '#!/bin/sh\n');
  chmodSync(join(second, 'unzip'), 0o755);
  writeFileSync(join(second, 'not-a-tool'), '#!/bin/sh\n');
  chmodSync(join(second, 'not-a-tool'), 0o755);
  t.deepEqual(toolsOnPath([first, 'relative/dir', '', second].join(delimiter)), ['curl', 'unzip']);
  t.deepEqual(toolsOnPath(''), []);
});

test('the host facts carry the tools and pass the gateway’s heartbeat schema', (t) => {
  const host = createMetricsSampler(tmpdir()).host();
  t.true(Array.isArray(host.tools));
  t.true(host.tools.includes('sh'), 'every machine has sh');
  t.true(heartbeatEvent.safeParse({ metrics: { cpuPercent: 1, memoryUsedBytes: 1, diskUsedBytes: 1 }, uptime: 1, host }).success);
});

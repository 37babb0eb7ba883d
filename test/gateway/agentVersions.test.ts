/**
 * Which agent versions a service accepts (schema/agentVersions.ts, docs/agent.md#versions): its own major version, not
 * older than the minimum, which defaults to the service's previous minor version.
 */
import test from 'ava';
import { agentVersionRefusal, compareVersions, minimumAgentVersion, upgradeAvailable } from '../../schema/agentVersions.ts';

test('the default minimum is the previous minor version; MIN_AGENT_VERSION replaces it', (t) => {
  t.is(minimumAgentVersion('1.4.2'), '1.3.0');
  t.is(minimumAgentVersion('1.0.7'), '1.0.0');
  t.is(minimumAgentVersion('0.1.0'), '0.0.0');
  t.is(minimumAgentVersion('1.4.2', '1.4.0'), '1.4.0');
});

test('a 1.4.2 service takes 1.3.0 and later 1.x agents, newer ones included, and refuses the rest saying why', (t) => {
  const policy = { serviceVersion: '1.4.2', minVersion: minimumAgentVersion('1.4.2') };
  for (const accepted of ['1.3.0', '1.3.9', '1.4.0', '1.4.2', '1.5.0', '1.9.3-beta.1']) t.is(agentVersionRefusal(accepted, policy), null, accepted);
  t.is(
    agentVersionRefusal('1.2.5', policy),
    "agent 1.2.5 is older than the minimum 1.3.0; upgrade the agent (run the machine's install.upgradeCommand, or install the service's own agent package)",
  );
  t.regex(agentVersionRefusal('2.0.0', policy)!, /^agent 2\.0\.0 is of major version 2; this service \(1\.4\.2\) accepts agents of major version 1/);
  t.regex(agentVersionRefusal('0.9.0', policy)!, /older than the minimum/);
});

test('versions compare by number, not as text; an upgrade is available only to a known, older agent', (t) => {
  t.true(compareVersions('1.10.0', '1.9.0') > 0);
  t.is(compareVersions('1.2.3', '1.2.3+build.5'), 0);
  t.true(upgradeAvailable('1.3.9', '1.4.0'));
  t.false(upgradeAvailable('1.4.0', '1.4.0'));
  t.false(upgradeAvailable('1.5.0', '1.4.0'));
  t.false(upgradeAvailable(null, '1.4.0'));
});

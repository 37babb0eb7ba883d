/**
 * A template's adminOnly files (docs/files.md#files-only-for-admins) are refused by the files API to members without
 * `servers.manage`; the API's writes and SFTP need no such check only because every role that may write files or
 * sign in over SFTP also holds `servers.manage`. A change of the role table that breaks this fails here.
 */
import test from 'ava';
import { can, ROLES } from '../../schema/roles.ts';
import { keptFromAdminOnly } from '../../orchestrator/files/adminOnly.ts';

test('only members without the RCON permission are kept from adminOnly files; none of them may write files or use SFTP', (t) => {
  t.deepEqual(
    ROLES.filter((role) => keptFromAdminOnly(role)),
    ['MODERATOR', 'VIEWER'],
  );
  for (const role of ROLES) {
    if (can(role, 'files.write')) t.false(keptFromAdminOnly(role), `${role} writes files: it must hold servers.manage`);
    if (can(role, 'files.sftp')) t.false(keptFromAdminOnly(role), `${role} uses SFTP: it must hold servers.manage`);
  }
});

/** Members and invitations: roles changed and members removed, invitations sent and revoked (OWNER; ADMIN for MODERATOR and VIEWER). */
import { useRef, useState } from 'preact/hooks';
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { all, api, messageOf } from '../session.ts';
import type { PageProps } from '../nav.ts';
import { Action, can, Field, Form, formatTime, Notice, Select, Show, Status, Table, useLoad, type Role } from '../ui.tsx';

type Member = Schemas['Member'];
type Invitation = Schemas['Invitation'];
const ROLES: Role[] = ['OWNER', 'ADMIN', 'MODERATOR', 'VIEWER'];

export function MembersPage({ cluster }: PageProps) {
  const members = useLoad(() => all<Member>(`/api/v1/clusters/${cluster.id}/members`), [cluster.id]);
  const manage = can(cluster.role, 'manage');
  const invitations = useLoad(
    () => (manage ? all<Invitation>(`/api/v1/clusters/${cluster.id}/invitations`, { status: 'PENDING' }) : Promise.resolve([])),
    [cluster.id, manage],
  );
  const [invited, setInvited] = useState<Schemas['InvitationCreated'] | null>(null);
  const [roleError, setRoleError] = useState<string | null>(null);
  // An ADMIN manages MODERATOR and VIEWER only.
  const assignable = cluster.role === 'OWNER' ? ROLES : ROLES.slice(2);
  const mayManage = (role: Role) => manage && assignable.includes(role);
  return (
    <section>
      <h1>Members</h1>
      {roleError && <Notice kind="error">{roleError}</Notice>}
      <Show loaded={members}>
        {(rows) => (
          <Table
            label="Members"
            rows={rows}
            rowKey={(member) => member.userId}
            empty="No members."
            columns={[
              { title: 'Name', cell: (member) => member.displayName },
              { title: 'E-mail', cell: (member) => member.email },
              {
                title: 'Role',
                cell: (member) =>
                  mayManage(member.role as Role) ? (
                    <select
                      aria-label={`Role of ${member.displayName}`}
                      value={member.role}
                      onChange={(event) => {
                        const role = event.currentTarget.value;
                        setRoleError(null);
                        api
                          .request('patch', `/api/v1/clusters/${cluster.id}/members/${member.userId}`, { body: { role } })
                          .then(members.reload, (error: unknown) => {
                            setRoleError(`${member.displayName}: ${messageOf(error)}`);
                            members.reload();
                          });
                      }}
                    >
                      {assignable.map((role) => (
                        <option key={role}>{role}</option>
                      ))}
                    </select>
                  ) : (
                    member.role
                  ),
              },
              { title: 'Joined', cell: (member) => formatTime(member.joinedAt) },
              ...(manage
                ? [
                    {
                      title: 'Actions',
                      cell: (member: Member) =>
                        mayManage(member.role as Role) && (
                          <Action
                            class="danger"
                            confirm={`Remove ${member.displayName} from ${cluster.name}?`}
                            run={async () => (await api.request('delete', `/api/v1/clusters/${cluster.id}/members/${member.userId}`), members.reload())}
                          >
                            Remove
                          </Action>
                        ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Show>
      {manage && (
        <>
          <h2>Invitations</h2>
          <Form
            class="form inline"
            submit="Invite"
            onSubmit={async ({ email, role }) => {
              setInvited(await api.post<Schemas['InvitationCreated']>(`/api/v1/clusters/${cluster.id}/invitations`, { email, role }));
              invitations.reload();
              return true;
            }}
          >
            <Field name="email" label="E-mail" type="email" required />
            <Select name="role" label="Role" options={assignable} value="VIEWER" />
          </Form>
          {invited && <InvitationLink invited={invited} />}
          <Show loaded={invitations}>
            {(rows) => (
              <Table
                label="Pending invitations"
                rows={rows}
                rowKey={(invitation) => invitation.id}
                empty="No pending invitations."
                columns={[
                  { title: 'E-mail', cell: (invitation) => invitation.email },
                  { title: 'Role', cell: (invitation) => invitation.role },
                  { title: 'Status', cell: (invitation) => <Status status={invitation.status} /> },
                  { title: 'Expires', cell: (invitation) => formatTime(invitation.expiresAt) },
                  {
                    title: 'Actions',
                    cell: (invitation: Invitation) => (
                      <Action
                        run={async () => (await api.request('delete', `/api/v1/clusters/${cluster.id}/invitations/${invitation.id}`), invitations.reload())}
                      >
                        Revoke
                      </Action>
                    ),
                  },
                ]}
              />
            )}
          </Show>
        </>
      )}
    </section>
  );
}

/** A new invitation's link (shown only now) with a Copy button, and whether the invitee was e-mailed it. */
function InvitationLink({ invited }: { invited: Schemas['InvitationCreated'] }) {
  const [copied, setCopied] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invited.link);
    } catch {
      // No Clipboard API outside HTTPS and localhost (a LAN address over HTTP): the older command still copies a selection.
      field.current?.select();
      if (!document.execCommand('copy')) return setCopied('Select the link and copy it yourself.');
    }
    setCopied('Copied.');
  };
  return (
    <section class="notice success" aria-label="New invitation">
      <p>
        Invitation for {invited.email} made.{' '}
        {invited.emailed
          ? 'An e-mail with its link is on its way to them.'
          : 'No e-mail was sent (this installation has no SMTP server set up, or that address was sent three invitations today): give them this link yourself.'}{' '}
        The link is shown only now.
      </p>
      <p class="copy-link">
        <input ref={field} readOnly value={invited.link} aria-label="Invitation link" onFocus={(event) => event.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        {copied && <span role="status">{copied}</span>}
      </p>
    </section>
  );
}

/** Creating a cluster (a community's servers, machines, players and team). */
import type { Schemas } from '../../../clients/typescript/src/client.ts';
import { api } from '../session.ts';
import { link } from '../nav.ts';
import { Field, Form } from '../ui.tsx';

export function CreateCluster({ onCreated, first }: { onCreated: () => void; first?: boolean }) {
  return (
    <section>
      <h1>{first ? 'Create your first cluster' : 'New cluster'}</h1>
      <p class="muted">A cluster holds a community's machines, game servers, players, bans, tasks and team.</p>
      <Form
        submit="Create cluster"
        onSubmit={async ({ name, description }) => {
          const cluster = await api.post<Schemas['Cluster']>('/api/v1/clusters', { name, ...(description ? { description } : {}) });
          onCreated();
          location.hash = link('c', cluster.id, 'machines');
        }}
      >
        <Field name="name" label="Name" required maxLength={64} />
        <Field name="description" label="Description (optional)" maxLength={500} />
      </Form>
    </section>
  );
}

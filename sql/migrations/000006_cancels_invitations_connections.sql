-- A cancel asked for while a job is with its agent is remembered, so it survives the agent being away.
ALTER TABLE jobs ADD COLUMN cancel_requested_at timestamptz;

-- Expired invitations are marked so, freeing the address for a new invitation (the pending-address index only
-- covers PENDING rows).
ALTER TABLE invitations DROP CONSTRAINT invitations_status_check;
ALTER TABLE invitations ADD CONSTRAINT invitations_status_check CHECK (status IN ('PENDING', 'ACCEPTED', 'REVOKED', 'EXPIRED'));

-- Which connection of a machine's agent is current, across every orchestrator process: bumped at each
-- authentication, so a replaced connection elsewhere neither keeps acting nor marks the machine offline when it ends.
ALTER TABLE machines ADD COLUMN connection_generation bigint NOT NULL DEFAULT 0;

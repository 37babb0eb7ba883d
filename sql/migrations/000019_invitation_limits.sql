-- Limits on invitations (docs/access.md): invitations a user created in the last day, and invitation e-mails to one
-- address in the last day, are counted at each new invitation.
CREATE INDEX invitations_invited_by_created_idx ON invitations (invited_by, created_at);
CREATE INDEX invitations_email_created_idx ON invitations (lower(email), created_at);

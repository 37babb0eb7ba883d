-- The job type check of 000038 was added NOT VALID (jobs is big): validated here without blocking writes.
ALTER TABLE jobs VALIDATE CONSTRAINT jobs_type_check;

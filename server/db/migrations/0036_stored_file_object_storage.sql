-- Uploaded files in object storage (issue 26): a stored_file row keeps its bytes either in the
-- database (storage 'local', data set: the embedded default, as before) or in an S3-compatible
-- bucket (storage 's3', bucket and object_key set, data NULL) — server/storage/object-store.ts.
-- Existing rows are local and unchanged.
ALTER TABLE stored_file ALTER COLUMN data DROP NOT NULL;
ALTER TABLE stored_file ADD COLUMN storage varchar(10) NOT NULL DEFAULT 'local' CHECK (storage IN ('local', 's3'));
ALTER TABLE stored_file ADD COLUMN bucket varchar(255);
ALTER TABLE stored_file ADD COLUMN object_key varchar(1024);
ALTER TABLE stored_file ADD CONSTRAINT stored_file_bytes_check CHECK (
  (storage = 'local' AND data IS NOT NULL) OR (storage = 's3' AND bucket IS NOT NULL AND object_key IS NOT NULL)
);

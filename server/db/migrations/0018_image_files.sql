-- Image extraction (operationsTools/imageExtraction, learn/pictureAnalyze; issue 13):
-- images are uploaded to the console and kept here, served back from a same-origin path
-- (GET image-extraction/image?id=), and read by a vision-capable model server in an
-- `image.extract` job. Only png, jpeg, webp and gif are kept (checked by their bytes).
CREATE TABLE image_file (
  id           serial PRIMARY KEY,
  name         varchar(255) NOT NULL,
  content_type varchar(40) NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp', 'image/gif')),
  size         integer NOT NULL CHECK (size > 0),
  sha256       char(64) NOT NULL,
  data         bytea NOT NULL,
  uploaded_by  integer REFERENCES accounts(id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX image_file_created_idx ON image_file (created_at);

-- extract_status: 0 not extracted, 1 extracting (a job is queued or running), 2 extracted,
-- 3 failed (extract_error says why), 4 no enabled model server reads images
ALTER TABLE image_extraction
  ADD COLUMN image_file_id  integer REFERENCES image_file(id) ON DELETE SET NULL,
  ADD COLUMN extract_status smallint NOT NULL DEFAULT 0 CHECK (extract_status BETWEEN 0 AND 4),
  ADD COLUMN extract_error  varchar(1000) NOT NULL DEFAULT '',
  ADD COLUMN extract_model  varchar(300) NOT NULL DEFAULT '',
  ADD COLUMN extract_job_id bigint,
  ADD COLUMN extracted_at   timestamptz,
  ADD COLUMN attributes     jsonb NOT NULL DEFAULT '{}'::jsonb;
CREATE INDEX image_extraction_file_idx ON image_extraction (image_file_id);
CREATE INDEX image_extraction_status_idx ON image_extraction (extract_status, id);

-- an uploaded image leaves with the last row that shows it (deleted, or given another image)
CREATE FUNCTION image_extraction_drop_file() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.image_file_id IS NOT DISTINCT FROM NEW.image_file_id THEN
    RETURN NULL;
  END IF;
  IF OLD.image_file_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM image_extraction WHERE image_file_id = OLD.image_file_id) THEN
    DELETE FROM image_file WHERE id = OLD.image_file_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER image_extraction_drop_file AFTER DELETE OR UPDATE OF image_file_id ON image_extraction
  FOR EACH ROW EXECUTE FUNCTION image_extraction_drop_file();

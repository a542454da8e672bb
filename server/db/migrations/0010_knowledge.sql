-- The knowledge index (server/ai/knowledge, server/ai/retrieval): every piece of a shop's
-- knowledge cut into chunks, each with its words segmented in Node (Intl.Segmenter) and stored
-- space-separated, so the 'simple' text-search configuration indexes them the same way on
-- PGlite and PostgreSQL. Ranking is BM25 over `tsv` (term frequencies from the lexeme
-- positions, document frequencies counted at query time); see server/ai/retrieval/search.ts.
CREATE TABLE knowledge_chunk (
  id          bigserial PRIMARY KEY,
  -- null: knowledge of every shop (a document uploaded without a shop)
  shop_id     integer REFERENCES shop(id) ON DELETE CASCADE,
  -- chat / email; null: every channel
  channel     varchar(10),
  -- policy | product_knowledge | product_desc | learn_doc
  source_type varchar(20) NOT NULL,
  source_id   integer NOT NULL,
  -- the policy's source type 1–11 (spec section 3); null for the other sources
  policy_type smallint,
  title       varchar(300) NOT NULL,
  chunk_index integer NOT NULL,
  text        text NOT NULL,
  segmented   text NOT NULL,
  -- number of tokens in `segmented` (the document length of BM25)
  tokens      integer NOT NULL,
  tsv         tsvector NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (source_type, source_id, chunk_index)
);
CREATE INDEX knowledge_chunk_tsv_idx ON knowledge_chunk USING gin (tsv);
CREATE INDEX knowledge_chunk_shop_idx ON knowledge_chunk (shop_id, source_type);

-- Sources changed since they were last indexed. Triggers on the source tables add a row for
-- every insert, update of an indexed column, and delete, whatever path wrote it (forms,
-- imports, seeds, other resources); server/ai/knowledge/sync.ts re-indexes them (before each
-- search, and on a tick) and deletes the row in the same transaction.
CREATE TABLE knowledge_pending (
  source_type varchar(20) NOT NULL,
  source_id   integer NOT NULL,
  shop_id     integer,
  queued_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source_type, source_id)
);
CREATE INDEX knowledge_pending_shop_idx ON knowledge_pending (shop_id);

CREATE FUNCTION knowledge_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO knowledge_pending (source_type, source_id, shop_id) VALUES (TG_ARGV[0], OLD.id, OLD.shop_id)
      ON CONFLICT (source_type, source_id) DO NOTHING;
  ELSE
    INSERT INTO knowledge_pending (source_type, source_id, shop_id) VALUES (TG_ARGV[0], NEW.id, NEW.shop_id)
      ON CONFLICT (source_type, source_id) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER policy_knowledge AFTER INSERT OR DELETE OR UPDATE OF shop_id, title, content, source_type, channel, status
  ON policy FOR EACH ROW EXECUTE FUNCTION knowledge_mark('policy');
CREATE TRIGGER douyin_product_knowledge AFTER INSERT OR DELETE OR UPDATE OF shop_id, title, policy, status
  ON douyin_product FOR EACH ROW EXECUTE FUNCTION knowledge_mark('product_knowledge');
CREATE TRIGGER product_desc_knowledge AFTER INSERT OR DELETE OR UPDATE OF shop_id, title, description, identified_desc
  ON product_desc FOR EACH ROW EXECUTE FUNCTION knowledge_mark('product_desc');
-- a document's chunks are written by its learning job (doc.learn); the trigger catches deletes
-- and a re-learn (status back to 0 drops the chunks)
CREATE TRIGGER learn_doc_knowledge AFTER DELETE OR UPDATE OF shop_id, name, status
  ON learn_doc FOR EACH ROW EXECUTE FUNCTION knowledge_mark('learn_doc');

-- chunking of a learned document (estimated tokens per chunk, fraction repeated in the next)
ALTER TABLE learn_doc ADD COLUMN chunk_size integer NOT NULL DEFAULT 500;
ALTER TABLE learn_doc ADD COLUMN chunk_overlap real NOT NULL DEFAULT 0.15;

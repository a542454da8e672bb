-- Retrieval that knows when not to answer (issue 21, docs/ai.md "Deciding not to answer").

-- A knowledge base's score threshold and top-k: a shop's knowledge has its own (no row: the
-- defaults of server/ai/knowledge/decide.ts, chosen on the labelled development questions).
CREATE TABLE knowledge_setting (
  shop_id         integer PRIMARY KEY REFERENCES shop(id) ON DELETE CASCADE,
  score_threshold numeric(4,3) NOT NULL CHECK (score_threshold >= 0 AND score_threshold <= 1),
  top_k           smallint NOT NULL CHECK (top_k >= 1 AND top_k <= 20),
  updated_by      integer REFERENCES accounts(id) ON DELETE SET NULL,
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- An assistant may override either (null: the knowledge base's).
ALTER TABLE chat_assistant
  ADD COLUMN score_threshold numeric(4,3) CHECK (score_threshold >= 0 AND score_threshold <= 1),
  ADD COLUMN top_k smallint CHECK (top_k >= 1 AND top_k <= 20);

-- Chinese is now segmented by jieba (server/ai/knowledge/segment.ts): every indexed source is
-- queued to be indexed again with the new segmentation (the sync tick and each search's sync of
-- its shop work the queue off; a chunk re-indexed loses its vector until the embed job redoes it).
INSERT INTO knowledge_pending (source_type, source_id, shop_id)
SELECT DISTINCT source_type, source_id, shop_id FROM knowledge_chunk
ON CONFLICT (source_type, source_id) DO NOTHING;

-- Vectors of the knowledge chunks for hybrid ranking (server/ai/knowledge/embed.ts,
-- server/ai/retrieval/search.ts): BM25 and vector similarity fused by Reciprocal Rank Fusion
-- when an embeddings server is configured.
--
-- `embedding` is a plain real[] (works on PGlite and on PostgreSQL without pgvector), L2-normalised
-- when written, so the dot product of two vectors is their cosine similarity.
-- `embedding_key` names what made it: '<model server id>:<embedding model>'. Chunks whose key is
-- not the configured server's (none yet, or another server / model) are embedded again by the
-- `knowledge.embed` tick; search only compares vectors of the configured key.
ALTER TABLE knowledge_chunk ADD COLUMN embedding real[];
ALTER TABLE knowledge_chunk ADD COLUMN embedding_key varchar(200);
ALTER TABLE knowledge_chunk ADD COLUMN embedded_at timestamptz;
-- finds the chunks still to embed (key NULL, < key, > key) and the chunks of one key
CREATE INDEX knowledge_chunk_embedding_key_idx ON knowledge_chunk (embedding_key);

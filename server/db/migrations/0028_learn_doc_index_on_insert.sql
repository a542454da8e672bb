-- Every learned document is indexed (issue 21). 0010's trigger on learn_doc had no INSERT case:
-- its chunks were written only by the doc.learn job, so a document inserted already learned (the
-- demo seed, an import, SQL by hand) was never indexed. Now an insert, and a change of its text or
-- chunking, queue it for server/ai/knowledge's sync like the other sources; the sync indexes a
-- learned document (status 1) and drops the chunks of any other.
DROP TRIGGER learn_doc_knowledge ON learn_doc;
CREATE TRIGGER learn_doc_knowledge AFTER INSERT OR DELETE OR UPDATE OF shop_id, name, status, content, chunk_size, chunk_overlap
  ON learn_doc FOR EACH ROW EXECUTE FUNCTION knowledge_mark('learn_doc');

-- the backfill: learned documents that have no chunk yet
INSERT INTO knowledge_pending (source_type, source_id, shop_id)
SELECT 'learn_doc', d.id, d.shop_id FROM learn_doc d
 WHERE d.status = 1 AND d.content <> ''
   AND NOT EXISTS (SELECT 1 FROM knowledge_chunk c WHERE c.source_type = 'learn_doc' AND c.source_id = d.id)
ON CONFLICT (source_type, source_id) DO NOTHING;

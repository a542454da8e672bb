-- The console's default list order is newest first with id as the tie-breaker. With the filter
-- column first and (created_at, id) after it, a filtered page is read in index order: no sort
-- step, and a deep page skips its OFFSET rows inside the index (the page ids are found there
-- first, see server/resources/engine/list.ts). Measured by `npm run bench -- --only api`.
CREATE INDEX shop_env_created_id_idx ON shop (env, created_at, id);
CREATE INDEX shop_created_id_idx ON shop (created_at, id);
DROP INDEX shop_created_idx;
CREATE INDEX shop_order_fin_created_id_idx ON shop_order (financial_status, created_at, id);
DROP INDEX shop_order_fin_idx;
CREATE INDEX shop_order_created_id_idx ON shop_order (created_at, id);
DROP INDEX shop_order_created_idx;

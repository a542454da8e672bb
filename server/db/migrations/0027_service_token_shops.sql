-- Service tokens limited to shops (issue 25, server/routes/service-tokens.ts): NULL = every shop;
-- otherwise an ingested record of another shop is rejected on `shop_id`.
ALTER TABLE service_token ADD COLUMN shop_ids integer[];

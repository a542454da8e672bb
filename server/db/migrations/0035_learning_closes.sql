-- Learning closes by itself (issue 24): a policy candidate started from a learning material
-- ("ticket learning", POST learn-material/ticket-learn) remembers its material, so adopting the
-- candidate marks the material learned and rejecting it gives the ticket back as not learned
-- (server/resources/learn-review.ts), in the same transaction as the review. Candidates written
-- before this have no material: their tickets are moved by hand as before.
ALTER TABLE learn_policy ADD COLUMN material_id integer REFERENCES learn_material(id) ON DELETE SET NULL;
CREATE INDEX learn_policy_material_idx ON learn_policy (material_id) WHERE material_id IS NOT NULL;
-- an adopted product candidate becomes the product's knowledge (product_desc, indexed by its
-- trigger); the row it went to
ALTER TABLE learn_policy_product ADD COLUMN product_desc_id integer REFERENCES product_desc(id) ON DELETE SET NULL;
ALTER TABLE learn_policy_product ADD COLUMN reviewed_at timestamptz;
ALTER TABLE learn_policy_product ADD COLUMN reviewed_by integer REFERENCES accounts(id) ON DELETE SET NULL;

-- Page groups of spec section 2 that had no data yet (issue 26, docs/modules/page-groups.md):
-- the shop introduction modal, and the customer list's config and note modals.
-- A shop's introduction: what the shop is and sells, for staff who answer for it (one row per shop).
CREATE TABLE shop_introduction (
  shop_id       integer PRIMARY KEY REFERENCES shop(id) ON DELETE CASCADE,
  brand         varchar(100) NOT NULL DEFAULT '',
  introduction  text NOT NULL CHECK (char_length(introduction) <= 2000),
  main_products varchar(500) NOT NULL DEFAULT '',
  service_hours varchar(200) NOT NULL DEFAULT '',
  updated_by    integer,
  updated_at    timestamptz NOT NULL DEFAULT now()
);

-- A customer's (merchant user's) account settings kept by staff: tier, account manager, invoice
-- e-mail, the language notices to them are written in (one row per customer).
CREATE TABLE customer_config (
  user_id         integer PRIMARY KEY REFERENCES merchant_user(id) ON DELETE CASCADE,
  tier            varchar(20) NOT NULL DEFAULT 'standard' CHECK (tier IN ('standard', 'ka', 'strategic')),
  account_manager varchar(100) NOT NULL DEFAULT '',
  invoice_email   varchar(200) NOT NULL DEFAULT '',
  notice_language varchar(10) NOT NULL DEFAULT 'zh-CN' CHECK (notice_language IN ('zh-CN', 'en-US')),
  updated_by      integer,
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- Staff notes on a customer, newest first in the note modal.
CREATE TABLE customer_note (
  id         serial PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES merchant_user(id) ON DELETE CASCADE,
  content    varchar(1000) NOT NULL,
  created_by integer,
  author     varchar(200) NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX customer_note_user_idx ON customer_note (user_id, id);

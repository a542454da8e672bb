-- Reply and notification templates (template management, spec section 2 "template management";
-- docs/modules/page-groups.md). A template belongs to one shop or to all (shop_id NULL), is a
-- reply template (what an agent or the AI may answer with) or a notification template (what a
-- merchant notice or a customer e-mail says), for one channel and language. `variables` lists the
-- {{placeholders}} the content uses, for the editor's hint.
CREATE TABLE reply_template (
  id         serial PRIMARY KEY,
  shop_id    integer REFERENCES shop(id) ON DELETE CASCADE,
  name       varchar(100) NOT NULL,
  kind       varchar(20) NOT NULL DEFAULT 'reply' CHECK (kind IN ('reply', 'notification')),
  channel    varchar(10) NOT NULL DEFAULT 'chat' CHECK (channel IN ('chat', 'email')),
  language   varchar(10) NOT NULL DEFAULT 'en-US',
  subject    varchar(200) NOT NULL DEFAULT '',
  content    text NOT NULL,
  variables  varchar(500) NOT NULL DEFAULT '',
  status     smallint NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  remark     varchar(500) NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reply_template_shop_idx ON reply_template (shop_id, id);
CREATE INDEX reply_template_kind_idx ON reply_template (kind, channel, id);
CREATE INDEX reply_template_fts_idx ON reply_template USING gin (to_tsvector('simple', name || ' ' || content));

-- the global defaults every installation starts with (editable, may be switched off)
INSERT INTO reply_template (name, kind, channel, language, subject, content, variables) VALUES
  ('Order shipped', 'reply', 'chat', 'en-US', '', 'Hi {{customer_name}}, your order {{order_no}} has shipped. Track it here: {{tracking_url}}', 'customer_name, order_no, tracking_url'),
  ('订单已发货', 'reply', 'chat', 'zh-CN', '', '{{customer_name}}您好，您的订单 {{order_no}} 已发货，物流链接：{{tracking_url}}', 'customer_name, order_no, tracking_url'),
  ('Hand over to a person', 'reply', 'chat', 'en-US', '', 'Let me bring in a colleague who can help you with this. Please hold on a moment.', ''),
  ('Ticket answered', 'notification', 'email', 'en-US', 'Your request {{ticket_no}} has been answered', E'Hello {{customer_name}},\n\nwe have answered your request {{ticket_no}}. Reply to this e-mail if anything is still open.\n\n{{shop_name}}', 'customer_name, ticket_no, shop_name'),
  ('套餐即将到期', 'notification', 'email', 'zh-CN', '您的套餐将于 {{end_date}} 到期', '{{merchant_name}}您好，您店铺 {{shop_name}} 的套餐将于 {{end_date}} 到期，请及时续费以免影响 AI 客服。', 'merchant_name, shop_name, end_date');

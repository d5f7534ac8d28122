-- The services codes can be received for, and the countries numbers come from (getAppList: the
-- applist front page and the verification area). Operators edit these rows; the seed is a start.

CREATE TABLE code_apps (
  app text PRIMARY KEY,
  name_en text NOT NULL,
  name_zh text NOT NULL,
  sort integer NOT NULL DEFAULT 100,
  enabled boolean NOT NULL DEFAULT true
);

CREATE TABLE code_countries (
  code text PRIMARY KEY,
  tel_code text NOT NULL,
  sort integer NOT NULL DEFAULT 100,
  show boolean NOT NULL DEFAULT true
);

INSERT INTO code_apps (app, name_en, name_zh, sort) VALUES
  ('whatsapp', 'WhatsApp', 'WhatsApp', 1),
  ('telegram', 'Telegram', 'Telegram', 2),
  ('google', 'Google', '谷歌', 3),
  ('wechat', 'WeChat', '微信', 4),
  ('facebook', 'Facebook', 'Facebook', 5),
  ('instagram', 'Instagram', 'Instagram', 6),
  ('tiktok', 'TikTok', 'TikTok', 7),
  ('openai', 'OpenAI', 'OpenAI', 8),
  ('twitter', 'X (Twitter)', 'X（推特）', 9),
  ('microsoft', 'Microsoft', '微软', 10),
  ('apple', 'Apple', '苹果', 11),
  ('amazon', 'Amazon', '亚马逊', 12),
  ('paypal', 'PayPal', 'PayPal', 13),
  ('discord', 'Discord', 'Discord', 14),
  ('signal', 'Signal', 'Signal', 15),
  ('snapchat', 'Snapchat', 'Snapchat', 16),
  ('linkedin', 'LinkedIn', '领英', 17),
  ('uber', 'Uber', '优步', 18),
  ('airbnb', 'Airbnb', '爱彼迎', 19),
  ('tinder', 'Tinder', 'Tinder', 20),
  ('line', 'LINE', 'LINE', 21),
  ('viber', 'Viber', 'Viber', 22),
  ('kakaotalk', 'KakaoTalk', 'KakaoTalk', 23),
  ('steam', 'Steam', 'Steam', 24),
  ('netflix', 'Netflix', '奈飞', 25),
  ('yahoo', 'Yahoo', '雅虎', 26),
  ('shopify', 'Shopify', 'Shopify', 27),
  ('ebay', 'eBay', '易贝', 28),
  ('alibaba', 'Alibaba', '阿里巴巴', 29),
  ('other', 'Any other app', '其他应用', 999);

INSERT INTO code_countries (code, tel_code, sort, show) VALUES
  ('US', '1', 1, true),
  ('CA', '1', 2, true),
  ('GB', '44', 3, true),
  ('AU', '61', 4, true);

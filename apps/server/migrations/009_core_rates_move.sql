-- Core (issue 8): message prices move from message_rates into rates. Values an operator changed in
-- message_rates win over the seed; then the old table goes.
INSERT INTO rates (currency, kind, country, amount)
SELECT currency, 'sms', country, sms FROM message_rates
UNION ALL
SELECT currency, 'mms', country, mms FROM message_rates
ON CONFLICT (currency, kind, country, origin, variant) DO UPDATE SET amount = EXCLUDED.amount;
DROP TABLE message_rates;

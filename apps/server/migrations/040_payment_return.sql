-- Payments (issue 10): the sandbox provider returns the payer to the page the payment started from
-- (the order's return URL, e.g. the numbers tab), as a real provider's success and cancel URLs do.
ALTER TABLE payment_sandbox_checkouts ADD COLUMN return_url text;

-- Renewals at scale (issue 18): the hourly sweep reads the subscriptions whose rent is due a page at a
-- time in (payment date, number id) order, each page after the last row of the one before
-- (subscriptionsRepo.due). This index lets each page start where the last ended instead of reading
-- and sorting every number again.
CREATE INDEX virtual_numbers_payment_date ON virtual_numbers (payment_date, id);

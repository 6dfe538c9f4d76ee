-- The cluster `trips` of the proxy database: one option pN per logical partition, its connection string (the
-- placement of docker-compose.shards.yml: partition P on shard P mod 2), and the user PL/Proxy connects as.
-- `trip-history migrate` on the proxy reads it to find every partition.
CREATE EXTENSION IF NOT EXISTS plproxy;
CREATE SERVER trips FOREIGN DATA WRAPPER plproxy OPTIONS (
    connection_lifetime '1800',
    p0 'host=shard0 dbname=trip_history_p000 connect_timeout=2',
    p1 'host=shard1 dbname=trip_history_p001 connect_timeout=2',
    p2 'host=shard0 dbname=trip_history_p002 connect_timeout=2',
    p3 'host=shard1 dbname=trip_history_p003 connect_timeout=2'
);
CREATE USER MAPPING FOR PUBLIC SERVER trips OPTIONS (user 'trip_history');

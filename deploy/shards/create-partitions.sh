#!/bin/sh
# Creates this shard server's partition databases ($PARTITION_DATABASES) at its first start; `trip-history
# migrate` on the proxy fills them.
set -eu
for database in $PARTITION_DATABASES; do
    psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres -c "CREATE DATABASE $database"
done

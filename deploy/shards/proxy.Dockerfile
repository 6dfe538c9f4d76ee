# The proxy database of the sharded topology: PostgreSQL 15 with PL/Proxy, from the PostgreSQL project's apt
# repository that the official image already uses.
FROM postgres:15-bookworm
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-15-plproxy \
    && rm -rf /var/lib/apt/lists/*

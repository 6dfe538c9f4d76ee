"""The trip history service for analysts.

`trip_history_kit.generated` is the HTTP client generated from the service's openapi.yaml (every operation,
typed; regenerate it with scripts/analyst-kit/generate, never edit it). Beside it, a few functions for
analysts: every rider's trips in a window as pages or a streamed export, into pyarrow tables, pandas
DataFrames and Parquet files of one flat schema (`TRIP_SCHEMA`), and `follow_changes`, which follows the
analysts' changes feed from a stored token and rebuilds the copy through a callback when the token expired;
`adjustments_table` and `fare_lines_table` give the money of every trip, one row per ledger entry or fare line.
"""

from .changes import ERASED, UPSERT, CallbackTokenStore, Change, FileTokenStore, TokenStore, follow_changes
from .errors import ApiError
from .generated import AuthenticatedClient
from .http import Retries, connect
from .ledger import ADJUSTMENT_SCHEMA, FARE_LINE_SCHEMA, adjustments_table, fare_lines_table
from .trips import (
    TRIP_SCHEMA,
    TripFilter,
    export_batches,
    export_frame,
    export_parquet,
    export_table,
    iter_export,
    iter_pages,
    pages_frame,
    pages_table,
    trips_batch,
    trips_frame,
    trips_table,
    write_parquet,
)

__all__ = [
    "ADJUSTMENT_SCHEMA",
    "ERASED",
    "FARE_LINE_SCHEMA",
    "TRIP_SCHEMA",
    "UPSERT",
    "ApiError",
    "AuthenticatedClient",
    "CallbackTokenStore",
    "Change",
    "FileTokenStore",
    "Retries",
    "TokenStore",
    "TripFilter",
    "adjustments_table",
    "connect",
    "export_batches",
    "export_frame",
    "export_parquet",
    "export_table",
    "fare_lines_table",
    "follow_changes",
    "iter_export",
    "iter_pages",
    "pages_frame",
    "pages_table",
    "trips_batch",
    "trips_frame",
    "trips_table",
    "write_parquet",
]

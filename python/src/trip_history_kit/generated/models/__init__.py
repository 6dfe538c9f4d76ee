"""Contains all the data models used in inputs/outputs"""

from .adjustment import Adjustment
from .adjustment_kind import AdjustmentKind
from .analyst_filter import AnalystFilter
from .analyst_filter_status_type_1 import AnalystFilterStatusType1
from .analyst_filter_status_type_2_type_1 import AnalystFilterStatusType2Type1
from .analyst_filter_status_type_3_type_1 import AnalystFilterStatusType3Type1
from .analyst_trip_page import AnalystTripPage
from .analyst_trip_page_page import AnalystTripPagePage
from .analyst_trip_page_page_total_accuracy_type_0 import (
    AnalystTripPagePageTotalAccuracyType0,
)
from .driver import Driver
from .erase_rider_response_400 import EraseRiderResponse400
from .erase_rider_response_400_code_type_0 import EraseRiderResponse400CodeType0
from .erase_rider_response_401 import EraseRiderResponse401
from .erase_rider_response_401_code_type_0 import EraseRiderResponse401CodeType0
from .erase_rider_response_403 import EraseRiderResponse403
from .erase_rider_response_403_code_type_0 import EraseRiderResponse403CodeType0
from .erase_rider_response_429 import EraseRiderResponse429
from .erase_rider_response_429_code_type_0 import EraseRiderResponse429CodeType0
from .erase_rider_response_500 import EraseRiderResponse500
from .erase_rider_response_500_code_type_0 import EraseRiderResponse500CodeType0
from .erase_rider_response_503 import EraseRiderResponse503
from .erase_rider_response_503_code_type_0 import EraseRiderResponse503CodeType0
from .export_rider_trips_format import ExportRiderTripsFormat
from .export_rider_trips_response_400 import ExportRiderTripsResponse400
from .export_rider_trips_response_400_code_type_0 import (
    ExportRiderTripsResponse400CodeType0,
)
from .export_rider_trips_response_401 import ExportRiderTripsResponse401
from .export_rider_trips_response_401_code_type_0 import (
    ExportRiderTripsResponse401CodeType0,
)
from .export_rider_trips_response_403 import ExportRiderTripsResponse403
from .export_rider_trips_response_403_code_type_0 import (
    ExportRiderTripsResponse403CodeType0,
)
from .export_rider_trips_response_404 import ExportRiderTripsResponse404
from .export_rider_trips_response_404_code_type_0 import (
    ExportRiderTripsResponse404CodeType0,
)
from .export_rider_trips_response_429 import ExportRiderTripsResponse429
from .export_rider_trips_response_429_code_type_0 import (
    ExportRiderTripsResponse429CodeType0,
)
from .export_rider_trips_response_500 import ExportRiderTripsResponse500
from .export_rider_trips_response_500_code_type_0 import (
    ExportRiderTripsResponse500CodeType0,
)
from .export_rider_trips_response_503 import ExportRiderTripsResponse503
from .export_rider_trips_response_503_code_type_0 import (
    ExportRiderTripsResponse503CodeType0,
)
from .export_trips_format import ExportTripsFormat
from .export_trips_response_400 import ExportTripsResponse400
from .export_trips_response_400_code_type_0 import ExportTripsResponse400CodeType0
from .export_trips_response_401 import ExportTripsResponse401
from .export_trips_response_401_code_type_0 import ExportTripsResponse401CodeType0
from .export_trips_response_403 import ExportTripsResponse403
from .export_trips_response_403_code_type_0 import ExportTripsResponse403CodeType0
from .export_trips_response_414 import ExportTripsResponse414
from .export_trips_response_414_code_type_0 import ExportTripsResponse414CodeType0
from .export_trips_response_422 import ExportTripsResponse422
from .export_trips_response_422_code_type_0 import ExportTripsResponse422CodeType0
from .export_trips_response_429 import ExportTripsResponse429
from .export_trips_response_429_code_type_0 import ExportTripsResponse429CodeType0
from .export_trips_response_431 import ExportTripsResponse431
from .export_trips_response_431_code_type_0 import ExportTripsResponse431CodeType0
from .export_trips_response_500 import ExportTripsResponse500
from .export_trips_response_500_code_type_0 import ExportTripsResponse500CodeType0
from .export_trips_response_503 import ExportTripsResponse503
from .export_trips_response_503_code_type_0 import ExportTripsResponse503CodeType0
from .fare import Fare
from .fare_line import FareLine
from .fare_line_kind import FareLineKind
from .get_rider_trip_response_400 import GetRiderTripResponse400
from .get_rider_trip_response_400_code_type_0 import GetRiderTripResponse400CodeType0
from .get_rider_trip_response_401 import GetRiderTripResponse401
from .get_rider_trip_response_401_code_type_0 import GetRiderTripResponse401CodeType0
from .get_rider_trip_response_403 import GetRiderTripResponse403
from .get_rider_trip_response_403_code_type_0 import GetRiderTripResponse403CodeType0
from .get_rider_trip_response_404 import GetRiderTripResponse404
from .get_rider_trip_response_404_code_type_0 import GetRiderTripResponse404CodeType0
from .get_rider_trip_response_429 import GetRiderTripResponse429
from .get_rider_trip_response_429_code_type_0 import GetRiderTripResponse429CodeType0
from .get_rider_trip_response_500 import GetRiderTripResponse500
from .get_rider_trip_response_500_code_type_0 import GetRiderTripResponse500CodeType0
from .get_rider_trip_response_503 import GetRiderTripResponse503
from .get_rider_trip_response_503_code_type_0 import GetRiderTripResponse503CodeType0
from .get_trip_receipt_response_400 import GetTripReceiptResponse400
from .get_trip_receipt_response_400_code_type_0 import (
    GetTripReceiptResponse400CodeType0,
)
from .get_trip_receipt_response_401 import GetTripReceiptResponse401
from .get_trip_receipt_response_401_code_type_0 import (
    GetTripReceiptResponse401CodeType0,
)
from .get_trip_receipt_response_403 import GetTripReceiptResponse403
from .get_trip_receipt_response_403_code_type_0 import (
    GetTripReceiptResponse403CodeType0,
)
from .get_trip_receipt_response_404 import GetTripReceiptResponse404
from .get_trip_receipt_response_404_code_type_0 import (
    GetTripReceiptResponse404CodeType0,
)
from .get_trip_receipt_response_406 import GetTripReceiptResponse406
from .get_trip_receipt_response_406_code_type_0 import (
    GetTripReceiptResponse406CodeType0,
)
from .get_trip_receipt_response_429 import GetTripReceiptResponse429
from .get_trip_receipt_response_429_code_type_0 import (
    GetTripReceiptResponse429CodeType0,
)
from .get_trip_receipt_response_500 import GetTripReceiptResponse500
from .get_trip_receipt_response_500_code_type_0 import (
    GetTripReceiptResponse500CodeType0,
)
from .get_trip_receipt_response_503 import GetTripReceiptResponse503
from .get_trip_receipt_response_503_code_type_0 import (
    GetTripReceiptResponse503CodeType0,
)
from .health_response_500 import HealthResponse500
from .health_response_500_code_type_0 import HealthResponse500CodeType0
from .list_rider_trip_changes_response_400 import ListRiderTripChangesResponse400
from .list_rider_trip_changes_response_400_code_type_0 import (
    ListRiderTripChangesResponse400CodeType0,
)
from .list_rider_trip_changes_response_401 import ListRiderTripChangesResponse401
from .list_rider_trip_changes_response_401_code_type_0 import (
    ListRiderTripChangesResponse401CodeType0,
)
from .list_rider_trip_changes_response_403 import ListRiderTripChangesResponse403
from .list_rider_trip_changes_response_403_code_type_0 import (
    ListRiderTripChangesResponse403CodeType0,
)
from .list_rider_trip_changes_response_404 import ListRiderTripChangesResponse404
from .list_rider_trip_changes_response_404_code_type_0 import (
    ListRiderTripChangesResponse404CodeType0,
)
from .list_rider_trip_changes_response_410 import ListRiderTripChangesResponse410
from .list_rider_trip_changes_response_410_code_type_0 import (
    ListRiderTripChangesResponse410CodeType0,
)
from .list_rider_trip_changes_response_414 import ListRiderTripChangesResponse414
from .list_rider_trip_changes_response_414_code_type_0 import (
    ListRiderTripChangesResponse414CodeType0,
)
from .list_rider_trip_changes_response_429 import ListRiderTripChangesResponse429
from .list_rider_trip_changes_response_429_code_type_0 import (
    ListRiderTripChangesResponse429CodeType0,
)
from .list_rider_trip_changes_response_431 import ListRiderTripChangesResponse431
from .list_rider_trip_changes_response_431_code_type_0 import (
    ListRiderTripChangesResponse431CodeType0,
)
from .list_rider_trip_changes_response_500 import ListRiderTripChangesResponse500
from .list_rider_trip_changes_response_500_code_type_0 import (
    ListRiderTripChangesResponse500CodeType0,
)
from .list_rider_trip_changes_response_503 import ListRiderTripChangesResponse503
from .list_rider_trip_changes_response_503_code_type_0 import (
    ListRiderTripChangesResponse503CodeType0,
)
from .list_rider_trips_count import ListRiderTripsCount
from .list_rider_trips_response_400 import ListRiderTripsResponse400
from .list_rider_trips_response_400_code_type_0 import (
    ListRiderTripsResponse400CodeType0,
)
from .list_rider_trips_response_401 import ListRiderTripsResponse401
from .list_rider_trips_response_401_code_type_0 import (
    ListRiderTripsResponse401CodeType0,
)
from .list_rider_trips_response_403 import ListRiderTripsResponse403
from .list_rider_trips_response_403_code_type_0 import (
    ListRiderTripsResponse403CodeType0,
)
from .list_rider_trips_response_404 import ListRiderTripsResponse404
from .list_rider_trips_response_404_code_type_0 import (
    ListRiderTripsResponse404CodeType0,
)
from .list_rider_trips_response_414 import ListRiderTripsResponse414
from .list_rider_trips_response_414_code_type_0 import (
    ListRiderTripsResponse414CodeType0,
)
from .list_rider_trips_response_429 import ListRiderTripsResponse429
from .list_rider_trips_response_429_code_type_0 import (
    ListRiderTripsResponse429CodeType0,
)
from .list_rider_trips_response_431 import ListRiderTripsResponse431
from .list_rider_trips_response_431_code_type_0 import (
    ListRiderTripsResponse431CodeType0,
)
from .list_rider_trips_response_500 import ListRiderTripsResponse500
from .list_rider_trips_response_500_code_type_0 import (
    ListRiderTripsResponse500CodeType0,
)
from .list_rider_trips_response_503 import ListRiderTripsResponse503
from .list_rider_trips_response_503_code_type_0 import (
    ListRiderTripsResponse503CodeType0,
)
from .list_trip_changes_response_400 import ListTripChangesResponse400
from .list_trip_changes_response_400_code_type_0 import (
    ListTripChangesResponse400CodeType0,
)
from .list_trip_changes_response_401 import ListTripChangesResponse401
from .list_trip_changes_response_401_code_type_0 import (
    ListTripChangesResponse401CodeType0,
)
from .list_trip_changes_response_403 import ListTripChangesResponse403
from .list_trip_changes_response_403_code_type_0 import (
    ListTripChangesResponse403CodeType0,
)
from .list_trip_changes_response_410 import ListTripChangesResponse410
from .list_trip_changes_response_410_code_type_0 import (
    ListTripChangesResponse410CodeType0,
)
from .list_trip_changes_response_414 import ListTripChangesResponse414
from .list_trip_changes_response_414_code_type_0 import (
    ListTripChangesResponse414CodeType0,
)
from .list_trip_changes_response_422 import ListTripChangesResponse422
from .list_trip_changes_response_422_code_type_0 import (
    ListTripChangesResponse422CodeType0,
)
from .list_trip_changes_response_429 import ListTripChangesResponse429
from .list_trip_changes_response_429_code_type_0 import (
    ListTripChangesResponse429CodeType0,
)
from .list_trip_changes_response_431 import ListTripChangesResponse431
from .list_trip_changes_response_431_code_type_0 import (
    ListTripChangesResponse431CodeType0,
)
from .list_trip_changes_response_500 import ListTripChangesResponse500
from .list_trip_changes_response_500_code_type_0 import (
    ListTripChangesResponse500CodeType0,
)
from .list_trip_changes_response_503 import ListTripChangesResponse503
from .list_trip_changes_response_503_code_type_0 import (
    ListTripChangesResponse503CodeType0,
)
from .list_trips_count import ListTripsCount
from .list_trips_response_400 import ListTripsResponse400
from .list_trips_response_400_code_type_0 import ListTripsResponse400CodeType0
from .list_trips_response_401 import ListTripsResponse401
from .list_trips_response_401_code_type_0 import ListTripsResponse401CodeType0
from .list_trips_response_403 import ListTripsResponse403
from .list_trips_response_403_code_type_0 import ListTripsResponse403CodeType0
from .list_trips_response_406 import ListTripsResponse406
from .list_trips_response_406_code_type_0 import ListTripsResponse406CodeType0
from .list_trips_response_414 import ListTripsResponse414
from .list_trips_response_414_code_type_0 import ListTripsResponse414CodeType0
from .list_trips_response_422 import ListTripsResponse422
from .list_trips_response_422_code_type_0 import ListTripsResponse422CodeType0
from .list_trips_response_429 import ListTripsResponse429
from .list_trips_response_429_code_type_0 import ListTripsResponse429CodeType0
from .list_trips_response_431 import ListTripsResponse431
from .list_trips_response_431_code_type_0 import ListTripsResponse431CodeType0
from .list_trips_response_500 import ListTripsResponse500
from .list_trips_response_500_code_type_0 import ListTripsResponse500CodeType0
from .list_trips_response_503 import ListTripsResponse503
from .list_trips_response_503_code_type_0 import ListTripsResponse503CodeType0
from .new_adjustment import NewAdjustment
from .new_driver import NewDriver
from .new_fare_line import NewFareLine
from .new_payment import NewPayment
from .new_place import NewPlace
from .new_route import NewRoute
from .new_trip import NewTrip
from .new_trip_fare import NewTripFare
from .new_vehicle import NewVehicle
from .open_api_document_response_200 import OpenApiDocumentResponse200
from .open_api_document_response_429 import OpenApiDocumentResponse429
from .open_api_document_response_429_code_type_0 import (
    OpenApiDocumentResponse429CodeType0,
)
from .open_api_document_response_500 import OpenApiDocumentResponse500
from .open_api_document_response_500_code_type_0 import (
    OpenApiDocumentResponse500CodeType0,
)
from .payment import Payment
from .payment_method import PaymentMethod
from .place import Place
from .probe_status import ProbeStatus
from .probe_status_reader import ProbeStatusReader
from .probe_status_status import ProbeStatusStatus
from .problem import Problem
from .problem_code import ProblemCode
from .readiness_response_500 import ReadinessResponse500
from .readiness_response_500_code_type_0 import ReadinessResponse500CodeType0
from .readiness_response_503 import ReadinessResponse503
from .readiness_response_503_code_type_0 import ReadinessResponse503CodeType0
from .receipt import Receipt
from .receipt_amount import ReceiptAmount
from .receipt_line import ReceiptLine
from .receipt_line_kind import ReceiptLineKind
from .receipt_locale_type_0 import ReceiptLocaleType0
from .receipt_payment import ReceiptPayment
from .receipt_trip import ReceiptTrip
from .record_adjustment_response_400 import RecordAdjustmentResponse400
from .record_adjustment_response_400_code_type_0 import (
    RecordAdjustmentResponse400CodeType0,
)
from .record_adjustment_response_401 import RecordAdjustmentResponse401
from .record_adjustment_response_401_code_type_0 import (
    RecordAdjustmentResponse401CodeType0,
)
from .record_adjustment_response_403 import RecordAdjustmentResponse403
from .record_adjustment_response_403_code_type_0 import (
    RecordAdjustmentResponse403CodeType0,
)
from .record_adjustment_response_404 import RecordAdjustmentResponse404
from .record_adjustment_response_404_code_type_0 import (
    RecordAdjustmentResponse404CodeType0,
)
from .record_adjustment_response_409 import RecordAdjustmentResponse409
from .record_adjustment_response_409_code_type_0 import (
    RecordAdjustmentResponse409CodeType0,
)
from .record_adjustment_response_412 import RecordAdjustmentResponse412
from .record_adjustment_response_412_code_type_0 import (
    RecordAdjustmentResponse412CodeType0,
)
from .record_adjustment_response_413 import RecordAdjustmentResponse413
from .record_adjustment_response_413_code_type_0 import (
    RecordAdjustmentResponse413CodeType0,
)
from .record_adjustment_response_415 import RecordAdjustmentResponse415
from .record_adjustment_response_415_code_type_0 import (
    RecordAdjustmentResponse415CodeType0,
)
from .record_adjustment_response_422 import RecordAdjustmentResponse422
from .record_adjustment_response_422_code_type_0 import (
    RecordAdjustmentResponse422CodeType0,
)
from .record_adjustment_response_429 import RecordAdjustmentResponse429
from .record_adjustment_response_429_code_type_0 import (
    RecordAdjustmentResponse429CodeType0,
)
from .record_adjustment_response_500 import RecordAdjustmentResponse500
from .record_adjustment_response_500_code_type_0 import (
    RecordAdjustmentResponse500CodeType0,
)
from .record_adjustment_response_503 import RecordAdjustmentResponse503
from .record_adjustment_response_503_code_type_0 import (
    RecordAdjustmentResponse503CodeType0,
)
from .record_trip_response_400 import RecordTripResponse400
from .record_trip_response_400_code_type_0 import RecordTripResponse400CodeType0
from .record_trip_response_401 import RecordTripResponse401
from .record_trip_response_401_code_type_0 import RecordTripResponse401CodeType0
from .record_trip_response_403 import RecordTripResponse403
from .record_trip_response_403_code_type_0 import RecordTripResponse403CodeType0
from .record_trip_response_409 import RecordTripResponse409
from .record_trip_response_409_code_type_0 import RecordTripResponse409CodeType0
from .record_trip_response_413 import RecordTripResponse413
from .record_trip_response_413_code_type_0 import RecordTripResponse413CodeType0
from .record_trip_response_415 import RecordTripResponse415
from .record_trip_response_415_code_type_0 import RecordTripResponse415CodeType0
from .record_trip_response_422 import RecordTripResponse422
from .record_trip_response_422_code_type_0 import RecordTripResponse422CodeType0
from .record_trip_response_429 import RecordTripResponse429
from .record_trip_response_429_code_type_0 import RecordTripResponse429CodeType0
from .record_trip_response_500 import RecordTripResponse500
from .record_trip_response_500_code_type_0 import RecordTripResponse500CodeType0
from .record_trip_response_503 import RecordTripResponse503
from .record_trip_response_503_code_type_0 import RecordTripResponse503CodeType0
from .route import Route
from .trip import Trip
from .trip_change import TripChange
from .trip_change_kind_type_0 import TripChangeKindType0
from .trip_change_page import TripChangePage
from .trip_change_page_page import TripChangePagePage
from .trip_display import TripDisplay
from .trip_page import TripPage
from .trip_page_filter import TripPageFilter
from .trip_page_filter_status_type_1 import TripPageFilterStatusType1
from .trip_page_filter_status_type_2_type_1 import TripPageFilterStatusType2Type1
from .trip_page_filter_status_type_3_type_1 import TripPageFilterStatusType3Type1
from .trip_page_page import TripPagePage
from .trip_page_page_total_accuracy_type_0 import TripPagePageTotalAccuracyType0
from .trip_stats import TripStats
from .trip_stats_bucket import TripStatsBucket
from .trip_stats_bucket_total_fare_minor import TripStatsBucketTotalFareMinor
from .trip_stats_bucket_total_refunds_minor import TripStatsBucketTotalRefundsMinor
from .trip_stats_bucket_total_tips_minor import TripStatsBucketTotalTipsMinor
from .trip_stats_by import TripStatsBy
from .trip_stats_group_by import TripStatsGroupBy
from .trip_stats_response_400 import TripStatsResponse400
from .trip_stats_response_400_code_type_0 import TripStatsResponse400CodeType0
from .trip_stats_response_401 import TripStatsResponse401
from .trip_stats_response_401_code_type_0 import TripStatsResponse401CodeType0
from .trip_stats_response_403 import TripStatsResponse403
from .trip_stats_response_403_code_type_0 import TripStatsResponse403CodeType0
from .trip_stats_response_406 import TripStatsResponse406
from .trip_stats_response_406_code_type_0 import TripStatsResponse406CodeType0
from .trip_stats_response_414 import TripStatsResponse414
from .trip_stats_response_414_code_type_0 import TripStatsResponse414CodeType0
from .trip_stats_response_422 import TripStatsResponse422
from .trip_stats_response_422_code_type_0 import TripStatsResponse422CodeType0
from .trip_stats_response_429 import TripStatsResponse429
from .trip_stats_response_429_code_type_0 import TripStatsResponse429CodeType0
from .trip_stats_response_431 import TripStatsResponse431
from .trip_stats_response_431_code_type_0 import TripStatsResponse431CodeType0
from .trip_stats_response_500 import TripStatsResponse500
from .trip_stats_response_500_code_type_0 import TripStatsResponse500CodeType0
from .trip_stats_response_503 import TripStatsResponse503
from .trip_stats_response_503_code_type_0 import TripStatsResponse503CodeType0
from .trip_status import TripStatus
from .vehicle import Vehicle

__all__ = (
    "Adjustment",
    "AdjustmentKind",
    "AnalystFilter",
    "AnalystFilterStatusType1",
    "AnalystFilterStatusType2Type1",
    "AnalystFilterStatusType3Type1",
    "AnalystTripPage",
    "AnalystTripPagePage",
    "AnalystTripPagePageTotalAccuracyType0",
    "Driver",
    "EraseRiderResponse400",
    "EraseRiderResponse400CodeType0",
    "EraseRiderResponse401",
    "EraseRiderResponse401CodeType0",
    "EraseRiderResponse403",
    "EraseRiderResponse403CodeType0",
    "EraseRiderResponse429",
    "EraseRiderResponse429CodeType0",
    "EraseRiderResponse500",
    "EraseRiderResponse500CodeType0",
    "EraseRiderResponse503",
    "EraseRiderResponse503CodeType0",
    "ExportRiderTripsFormat",
    "ExportRiderTripsResponse400",
    "ExportRiderTripsResponse400CodeType0",
    "ExportRiderTripsResponse401",
    "ExportRiderTripsResponse401CodeType0",
    "ExportRiderTripsResponse403",
    "ExportRiderTripsResponse403CodeType0",
    "ExportRiderTripsResponse404",
    "ExportRiderTripsResponse404CodeType0",
    "ExportRiderTripsResponse429",
    "ExportRiderTripsResponse429CodeType0",
    "ExportRiderTripsResponse500",
    "ExportRiderTripsResponse500CodeType0",
    "ExportRiderTripsResponse503",
    "ExportRiderTripsResponse503CodeType0",
    "ExportTripsFormat",
    "ExportTripsResponse400",
    "ExportTripsResponse400CodeType0",
    "ExportTripsResponse401",
    "ExportTripsResponse401CodeType0",
    "ExportTripsResponse403",
    "ExportTripsResponse403CodeType0",
    "ExportTripsResponse414",
    "ExportTripsResponse414CodeType0",
    "ExportTripsResponse422",
    "ExportTripsResponse422CodeType0",
    "ExportTripsResponse429",
    "ExportTripsResponse429CodeType0",
    "ExportTripsResponse431",
    "ExportTripsResponse431CodeType0",
    "ExportTripsResponse500",
    "ExportTripsResponse500CodeType0",
    "ExportTripsResponse503",
    "ExportTripsResponse503CodeType0",
    "Fare",
    "FareLine",
    "FareLineKind",
    "GetRiderTripResponse400",
    "GetRiderTripResponse400CodeType0",
    "GetRiderTripResponse401",
    "GetRiderTripResponse401CodeType0",
    "GetRiderTripResponse403",
    "GetRiderTripResponse403CodeType0",
    "GetRiderTripResponse404",
    "GetRiderTripResponse404CodeType0",
    "GetRiderTripResponse429",
    "GetRiderTripResponse429CodeType0",
    "GetRiderTripResponse500",
    "GetRiderTripResponse500CodeType0",
    "GetRiderTripResponse503",
    "GetRiderTripResponse503CodeType0",
    "GetTripReceiptResponse400",
    "GetTripReceiptResponse400CodeType0",
    "GetTripReceiptResponse401",
    "GetTripReceiptResponse401CodeType0",
    "GetTripReceiptResponse403",
    "GetTripReceiptResponse403CodeType0",
    "GetTripReceiptResponse404",
    "GetTripReceiptResponse404CodeType0",
    "GetTripReceiptResponse406",
    "GetTripReceiptResponse406CodeType0",
    "GetTripReceiptResponse429",
    "GetTripReceiptResponse429CodeType0",
    "GetTripReceiptResponse500",
    "GetTripReceiptResponse500CodeType0",
    "GetTripReceiptResponse503",
    "GetTripReceiptResponse503CodeType0",
    "HealthResponse500",
    "HealthResponse500CodeType0",
    "ListRiderTripChangesResponse400",
    "ListRiderTripChangesResponse400CodeType0",
    "ListRiderTripChangesResponse401",
    "ListRiderTripChangesResponse401CodeType0",
    "ListRiderTripChangesResponse403",
    "ListRiderTripChangesResponse403CodeType0",
    "ListRiderTripChangesResponse404",
    "ListRiderTripChangesResponse404CodeType0",
    "ListRiderTripChangesResponse410",
    "ListRiderTripChangesResponse410CodeType0",
    "ListRiderTripChangesResponse414",
    "ListRiderTripChangesResponse414CodeType0",
    "ListRiderTripChangesResponse429",
    "ListRiderTripChangesResponse429CodeType0",
    "ListRiderTripChangesResponse431",
    "ListRiderTripChangesResponse431CodeType0",
    "ListRiderTripChangesResponse500",
    "ListRiderTripChangesResponse500CodeType0",
    "ListRiderTripChangesResponse503",
    "ListRiderTripChangesResponse503CodeType0",
    "ListRiderTripsCount",
    "ListRiderTripsResponse400",
    "ListRiderTripsResponse400CodeType0",
    "ListRiderTripsResponse401",
    "ListRiderTripsResponse401CodeType0",
    "ListRiderTripsResponse403",
    "ListRiderTripsResponse403CodeType0",
    "ListRiderTripsResponse404",
    "ListRiderTripsResponse404CodeType0",
    "ListRiderTripsResponse414",
    "ListRiderTripsResponse414CodeType0",
    "ListRiderTripsResponse429",
    "ListRiderTripsResponse429CodeType0",
    "ListRiderTripsResponse431",
    "ListRiderTripsResponse431CodeType0",
    "ListRiderTripsResponse500",
    "ListRiderTripsResponse500CodeType0",
    "ListRiderTripsResponse503",
    "ListRiderTripsResponse503CodeType0",
    "ListTripChangesResponse400",
    "ListTripChangesResponse400CodeType0",
    "ListTripChangesResponse401",
    "ListTripChangesResponse401CodeType0",
    "ListTripChangesResponse403",
    "ListTripChangesResponse403CodeType0",
    "ListTripChangesResponse410",
    "ListTripChangesResponse410CodeType0",
    "ListTripChangesResponse414",
    "ListTripChangesResponse414CodeType0",
    "ListTripChangesResponse422",
    "ListTripChangesResponse422CodeType0",
    "ListTripChangesResponse429",
    "ListTripChangesResponse429CodeType0",
    "ListTripChangesResponse431",
    "ListTripChangesResponse431CodeType0",
    "ListTripChangesResponse500",
    "ListTripChangesResponse500CodeType0",
    "ListTripChangesResponse503",
    "ListTripChangesResponse503CodeType0",
    "ListTripsCount",
    "ListTripsResponse400",
    "ListTripsResponse400CodeType0",
    "ListTripsResponse401",
    "ListTripsResponse401CodeType0",
    "ListTripsResponse403",
    "ListTripsResponse403CodeType0",
    "ListTripsResponse406",
    "ListTripsResponse406CodeType0",
    "ListTripsResponse414",
    "ListTripsResponse414CodeType0",
    "ListTripsResponse422",
    "ListTripsResponse422CodeType0",
    "ListTripsResponse429",
    "ListTripsResponse429CodeType0",
    "ListTripsResponse431",
    "ListTripsResponse431CodeType0",
    "ListTripsResponse500",
    "ListTripsResponse500CodeType0",
    "ListTripsResponse503",
    "ListTripsResponse503CodeType0",
    "NewAdjustment",
    "NewDriver",
    "NewFareLine",
    "NewPayment",
    "NewPlace",
    "NewRoute",
    "NewTrip",
    "NewTripFare",
    "NewVehicle",
    "OpenApiDocumentResponse200",
    "OpenApiDocumentResponse429",
    "OpenApiDocumentResponse429CodeType0",
    "OpenApiDocumentResponse500",
    "OpenApiDocumentResponse500CodeType0",
    "Payment",
    "PaymentMethod",
    "Place",
    "ProbeStatus",
    "ProbeStatusReader",
    "ProbeStatusStatus",
    "Problem",
    "ProblemCode",
    "ReadinessResponse500",
    "ReadinessResponse500CodeType0",
    "ReadinessResponse503",
    "ReadinessResponse503CodeType0",
    "Receipt",
    "ReceiptAmount",
    "ReceiptLine",
    "ReceiptLineKind",
    "ReceiptLocaleType0",
    "ReceiptPayment",
    "ReceiptTrip",
    "RecordAdjustmentResponse400",
    "RecordAdjustmentResponse400CodeType0",
    "RecordAdjustmentResponse401",
    "RecordAdjustmentResponse401CodeType0",
    "RecordAdjustmentResponse403",
    "RecordAdjustmentResponse403CodeType0",
    "RecordAdjustmentResponse404",
    "RecordAdjustmentResponse404CodeType0",
    "RecordAdjustmentResponse409",
    "RecordAdjustmentResponse409CodeType0",
    "RecordAdjustmentResponse412",
    "RecordAdjustmentResponse412CodeType0",
    "RecordAdjustmentResponse413",
    "RecordAdjustmentResponse413CodeType0",
    "RecordAdjustmentResponse415",
    "RecordAdjustmentResponse415CodeType0",
    "RecordAdjustmentResponse422",
    "RecordAdjustmentResponse422CodeType0",
    "RecordAdjustmentResponse429",
    "RecordAdjustmentResponse429CodeType0",
    "RecordAdjustmentResponse500",
    "RecordAdjustmentResponse500CodeType0",
    "RecordAdjustmentResponse503",
    "RecordAdjustmentResponse503CodeType0",
    "RecordTripResponse400",
    "RecordTripResponse400CodeType0",
    "RecordTripResponse401",
    "RecordTripResponse401CodeType0",
    "RecordTripResponse403",
    "RecordTripResponse403CodeType0",
    "RecordTripResponse409",
    "RecordTripResponse409CodeType0",
    "RecordTripResponse413",
    "RecordTripResponse413CodeType0",
    "RecordTripResponse415",
    "RecordTripResponse415CodeType0",
    "RecordTripResponse422",
    "RecordTripResponse422CodeType0",
    "RecordTripResponse429",
    "RecordTripResponse429CodeType0",
    "RecordTripResponse500",
    "RecordTripResponse500CodeType0",
    "RecordTripResponse503",
    "RecordTripResponse503CodeType0",
    "Route",
    "Trip",
    "TripChange",
    "TripChangeKindType0",
    "TripChangePage",
    "TripChangePagePage",
    "TripDisplay",
    "TripPage",
    "TripPageFilter",
    "TripPageFilterStatusType1",
    "TripPageFilterStatusType2Type1",
    "TripPageFilterStatusType3Type1",
    "TripPagePage",
    "TripPagePageTotalAccuracyType0",
    "TripStats",
    "TripStatsBucket",
    "TripStatsBucketTotalFareMinor",
    "TripStatsBucketTotalRefundsMinor",
    "TripStatsBucketTotalTipsMinor",
    "TripStatsBy",
    "TripStatsGroupBy",
    "TripStatsResponse400",
    "TripStatsResponse400CodeType0",
    "TripStatsResponse401",
    "TripStatsResponse401CodeType0",
    "TripStatsResponse403",
    "TripStatsResponse403CodeType0",
    "TripStatsResponse406",
    "TripStatsResponse406CodeType0",
    "TripStatsResponse414",
    "TripStatsResponse414CodeType0",
    "TripStatsResponse422",
    "TripStatsResponse422CodeType0",
    "TripStatsResponse429",
    "TripStatsResponse429CodeType0",
    "TripStatsResponse431",
    "TripStatsResponse431CodeType0",
    "TripStatsResponse500",
    "TripStatsResponse500CodeType0",
    "TripStatsResponse503",
    "TripStatsResponse503CodeType0",
    "TripStatus",
    "Vehicle",
)

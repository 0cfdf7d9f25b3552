//! The pattern of every route of the service: the router's paths and the
//! metrics' `route` label (a leaf, so that the metrics need not import the
//! routes).

/// Every route's pattern (the metrics' `route` label).
pub const ROUTES: [&str; 14] = [
    "/",
    "/app.js",
    "/style.css",
    "/health",
    "/metrics",
    "/v1/puzzles",
    "/v1/puzzles/{set}",
    "/v1/puzzles/{set}/{id}",
    "/v1/{variant}",
    "/v1/{variant}/moves",
    "/v1/{variant}/explorer",
    "/v1/{variant}/perft",
    "/v1/{variant}/mate",
    "/v1/{variant}/prove",
];

// The trip explorer: reads the analyst API (GET /v1/trips, its CSV and NDJSON exports, GET /v1/trips/stats)
// with a token pasted by the analyst. The token lives in this tab's sessionStorage only; the filter lives in
// the page's query string, so a filtered view can be shared without sharing the token.
"use strict";

(() => {
  const TOKEN_KEY = "trip-history.analyst-token";
  const FILTER_FIELDS = ["from", "to", "tz", "city", "product", "status", "rider_id"];
  const VIEW_FIELDS = ["group_by", "limit"];
  const SVG_NS = "http://www.w3.org/2000/svg";

  const $ = (id) => document.getElementById(id);
  const form = $("filters");

  const state = {
    cursor: null, // the cursor of the page shown, null for the first
    page: 1,
    lastPage: null, // the last JSON page, for its cursors
    stats: null,
    // Bumped on every new read of each part of the page, so a late answer to an older one is dropped.
    generations: { trips: 0, chart: 0 },
  };

  // ---- token ----

  function token() {
    return sessionStorage.getItem(TOKEN_KEY) || "";
  }

  function showTokenStatus() {
    $("token-status").textContent = token()
      ? "A token is set for this tab. It is sent only to this server, in the Authorization header."
      : "No token set.";
  }

  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const value = $("token").value.trim().replace(/^Bearer\s+/i, "");
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    $("token").value = "";
    showTokenStatus();
    reload();
  });

  $("forget-token").addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN_KEY);
    showTokenStatus();
    reload();
  });

  // ---- filter <-> URL ----

  function isoDate(date) {
    return date.toISOString().slice(0, 10);
  }

  // Without a window in the URL: the current month and the two before it, in UTC dates.
  function defaultWindow() {
    const now = new Date();
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
    const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    return { from: isoDate(from), to: isoDate(to) };
  }

  function readURL() {
    const params = new URLSearchParams(location.search);
    const fallback = defaultWindow();
    $("from").value = params.get("from") ?? fallback.from;
    $("to").value = params.get("to") ?? fallback.to;
    $("tz").value = params.get("tz") ?? "";
    for (const name of ["city", "product", "rider_id"]) $(name).value = params.get(name) ?? "";
    $("status").value = ["completed", "canceled"].includes(params.get("status")) ? params.get("status") : "";
    $("group_by").value = ["day", "week", "month"].includes(params.get("group_by")) ? params.get("group_by") : "day";
    $("limit").value = ["10", "25", "50", "100"].includes(params.get("limit")) ? params.get("limit") : "25";
  }

  // The filter as the API takes it: only the fields that are set, trimmed.
  function filterParams() {
    const params = new URLSearchParams();
    for (const name of FILTER_FIELDS) {
      const value = $(name).value.trim();
      if (value) params.set(name, value);
    }
    return params;
  }

  // A query string with spaces as %20: URLSearchParams writes them as "+", which the API reads as a literal
  // plus sign in free-text filters (city=New+York matches no trip).
  function queryString(params) {
    return [...params].map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join("&");
  }

  function pageURLParams() {
    const params = filterParams();
    for (const name of VIEW_FIELDS) params.set(name, $(name).value);
    return params;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const query = queryString(pageURLParams());
    if (query !== location.search.slice(1)) history.pushState(null, "", `${location.pathname}?${query}`);
    reload();
  });

  window.addEventListener("popstate", () => {
    readURL();
    reload();
  });

  $("group_by").addEventListener("change", () => form.requestSubmit());
  $("limit").addEventListener("change", () => form.requestSubmit());

  // ---- API calls ----

  class Problem extends Error {
    constructor(title, detail) {
      super(detail ? `${title}: ${detail}` : title);
      this.title = title;
      this.detail = detail;
    }
  }

  // A problem from a non-2xx answer: RFC 9457 title and detail when the body is a problem, else the status.
  async function problemOf(response) {
    const type = response.headers.get("Content-Type") || "";
    if (type.includes("json")) {
      try {
        const body = await response.json();
        if (body && typeof body.title === "string") return new Problem(body.title, body.detail || "");
      } catch (ignored) {
        // Not JSON after all: fall through to the status line.
      }
    }
    return new Problem(`HTTP ${response.status}`, response.statusText || "The server refused the request.");
  }

  async function apiFetch(path, params, accept) {
    let response;
    try {
      response = await fetch(`${path}?${queryString(params)}`, {
        headers: { Authorization: `Bearer ${token()}`, Accept: accept },
        cache: "no-store",
      });
    } catch (error) {
      throw new Problem("The server cannot be reached", "Check that the service is running and try again.");
    }
    if (!response.ok) throw await problemOf(response);
    return response;
  }

  function showProblem(problem) {
    $("problem").hidden = false;
    $("problem-title").textContent = problem.title || "Something went wrong";
    $("problem-detail").textContent = problem.detail || "";
  }

  function asProblem(error) {
    return error instanceof Problem ? error : new Problem("Unexpected answer", String(error));
  }

  function clearProblem() {
    $("problem").hidden = true;
    $("problem-title").textContent = "";
    $("problem-detail").textContent = "";
  }

  // ---- loading ----

  function reload() {
    state.cursor = null;
    state.page = 1;
    clearProblem();
    $("download-status").textContent = "";
    if (!token()) {
      state.generations.trips += 1;
      state.generations.chart += 1;
      state.lastPage = null;
      state.stats = null;
      tableMessage("Paste an analyst token to load trips.");
      chartMessage("The chart appears once a token and a window are set.");
      updatePager();
      return;
    }
    loadPage();
    loadStats();
  }

  // Runs one API read for one part of the page (the "trips" table or the "chart"): marks the part busy, drops
  // the answer when a newer read of the same part started meanwhile, and hands the JSON or the problem to it.
  async function load(part, path, params, show) {
    const generation = ++state.generations[part];
    const current = () => generation === state.generations[part];
    setBusy($(part), true);
    show.loading();
    try {
      const response = await apiFetch(path, params, "application/json");
      const body = await response.json();
      if (current()) show.data(body);
    } catch (error) {
      if (current()) show.failure(asProblem(error));
    } finally {
      if (current()) {
        setBusy($(part), false);
        show.done?.();
      }
    }
  }

  function loadPage() {
    const params = filterParams();
    params.set("limit", $("limit").value);
    if (state.cursor) params.set("cursor", state.cursor);
    return load("trips", "/v1/trips", params, {
      loading: () => {
        tableMessage("Loading trips…", true);
        updatePager(true);
      },
      data: (page) => {
        state.lastPage = page;
        renderTrips(page.data);
        rememberSuggestions(page.data);
      },
      failure: (problem) => {
        state.lastPage = null;
        tableMessage("No trips loaded.");
        showProblem(problem);
      },
      done: () => updatePager(),
    });
  }

  function loadStats() {
    const params = filterParams();
    params.set("group_by", $("group_by").value);
    return load("chart", "/v1/trips/stats", params, {
      loading: () => chartMessage("Loading the chart…", true),
      data: (stats) => {
        state.stats = stats;
        fillCurrencies(stats.data);
        renderChart();
      },
      failure: (problem) => {
        state.stats = null;
        chartMessage("No chart: the query was refused.");
        // The list shows the same problem; show it here only when the list did not fail too.
        if ($("problem").hidden) showProblem(problem);
      },
    });
  }

  function setBusy(element, busy) {
    element.setAttribute("aria-busy", busy ? "true" : "false");
  }

  // ---- table ----

  function cell(text, className, sub) {
    const td = document.createElement("td");
    if (className) td.className = className;
    td.append(text ?? "");
    if (sub) {
      const span = document.createElement("span");
      span.className = "sub";
      span.textContent = sub;
      td.append(span);
    }
    return td;
  }

  function tableMessage(text, spinning) {
    const body = $("trips").tBodies[0];
    const row = document.createElement("tr");
    row.className = "state";
    const td = document.createElement("td");
    td.colSpan = 9;
    if (spinning) {
      const spinner = document.createElement("span");
      spinner.className = "spinner";
      td.append(spinner);
    }
    td.append(text);
    row.append(td);
    body.replaceChildren(row);
  }

  function renderTrips(trips) {
    if (trips.length === 0) {
      tableMessage("No trips match this filter.");
      return;
    }
    const rows = trips.map((trip) => {
      const row = document.createElement("tr");
      row.dataset.tripId = trip.id;
      const status = document.createElement("span");
      status.className = `badge ${trip.status}`;
      status.textContent = trip.display.status;
      const statusCell = cell("");
      statusCell.append(status);
      row.append(
        cell(trip.display.date, "when", trip.display.time),
        cell(trip.display.title, "title", `#${trip.id}`),
        cell(trip.rider_id, "rider"),
        cell(trip.city, "city"),
        cell(trip.product, "product"),
        statusCell,
        cell(trip.display.distance, "num distance"),
        cell(trip.display.duration, "num duration"),
        cell(trip.display.fare, "num fare"),
      );
      return row;
    });
    $("trips").tBodies[0].replaceChildren(...rows);
  }

  function updatePager(loading) {
    const page = state.lastPage?.page;
    $("prev-page").disabled = loading || !page?.prev_cursor;
    $("next-page").disabled = loading || !page?.next_cursor;
    const count = state.lastPage?.data.length ?? 0;
    $("page-label").textContent = state.lastPage && count > 0 ? `Page ${state.page} · ${count} trips` : "";
  }

  $("next-page").addEventListener("click", () => {
    const cursor = state.lastPage?.page?.next_cursor;
    if (!cursor) return;
    state.cursor = cursor;
    state.page += 1;
    clearProblem();
    loadPage();
  });

  $("prev-page").addEventListener("click", () => {
    const cursor = state.lastPage?.page?.prev_cursor;
    if (!cursor) return;
    state.cursor = cursor;
    state.page = Math.max(1, state.page - 1);
    clearProblem();
    loadPage();
  });

  // Cities and products seen so far, offered as suggestions (the API has no list of them).
  const seen = { cities: new Set(), products: new Set() };
  function rememberSuggestions(trips) {
    for (const trip of trips) {
      seen.cities.add(trip.city);
      seen.products.add(trip.product);
    }
    fillDatalist("cities", seen.cities);
    fillDatalist("products", seen.products);
  }

  function fillDatalist(id, values) {
    $(id).replaceChildren(
      ...[...values].sort().map((value) => {
        const option = document.createElement("option");
        option.value = value;
        return option;
      }),
    );
  }

  // ---- chart ----

  function chartMessage(text, spinning) {
    const p = document.createElement("p");
    p.className = "placeholder";
    if (spinning) {
      const spinner = document.createElement("span");
      spinner.className = "spinner";
      p.append(spinner);
    }
    p.append(text);
    $("chart").replaceChildren(p);
  }

  function fillCurrencies(buckets) {
    const totals = new Map();
    for (const bucket of buckets) {
      for (const [code, amount] of Object.entries(bucket.total_fare_minor)) {
        totals.set(code, (totals.get(code) ?? 0) + amount);
      }
    }
    const select = $("currency");
    const previous = select.value;
    const codes = [...totals.keys()].sort();
    select.replaceChildren(
      ...codes.map((code) => {
        const option = document.createElement("option");
        option.value = code;
        option.textContent = code;
        return option;
      }),
    );
    if (codes.includes(previous)) {
      select.value = previous;
    } else if (codes.length > 0) {
      // The currency with the most trips' worth of fares is a better default than the first code.
      select.value = [...totals.entries()].sort((a, b) => b[1] - a[1])[0][0];
    }
    select.disabled = codes.length === 0;
  }

  $("currency").addEventListener("change", () => renderChart());

  function svg(name, attributes, text) {
    const element = document.createElementNS(SVG_NS, name);
    for (const [key, value] of Object.entries(attributes ?? {})) element.setAttribute(key, String(value));
    if (text !== undefined) element.textContent = text;
    return element;
  }

  // Round steps (1, 2, 5 x 10^n) so that about `count` ticks cover [0, max].
  function ticks(max, count) {
    if (max <= 0) return [0, 1];
    const raw = max / count;
    const power = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
    const top = Math.ceil(max / step) * step;
    const values = [];
    for (let v = 0; v <= top + step / 2; v += step) values.push(Math.round(v * 1e6) / 1e6);
    return values;
  }

  const NOMINAL_PERIOD_MS = { day: 86400e3, week: 7 * 86400e3, month: 30.44 * 86400e3 };

  function minorDigits(currency) {
    try {
      return new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions().maximumFractionDigits;
    } catch (ignored) {
      return 2;
    }
  }

  function renderChart() {
    const stats = state.stats;
    if (!stats) return;
    const buckets = stats.data;
    if (buckets.length === 0) {
      chartMessage("No trips match this filter.");
      return;
    }
    const currency = $("currency").value;
    const digits = minorDigits(currency);
    const money = new Intl.NumberFormat("en-US", {
      style: "currency", currency: currency || "USD", notation: "compact", maximumFractionDigits: 1,
    });
    const count = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
    const labelFormat = new Intl.DateTimeFormat("en-US", stats.group_by === "month"
      ? { timeZone: stats.tz, month: "short", year: "numeric" }
      : { timeZone: stats.tz, month: "short", day: "numeric" });
    const fullFormat = new Intl.DateTimeFormat("en-US", { timeZone: stats.tz, dateStyle: "medium" });

    const width = 960, height = 480;
    const margin = { left: 64, right: 16, top: 22, bottom: 40 };
    const gap = 26;
    const plotWidth = width - margin.left - margin.right;

    const starts = buckets.map((b) => Date.parse(b.bucket_start));
    const period = NOMINAL_PERIOD_MS[stats.group_by] ?? NOMINAL_PERIOD_MS.day;
    const t0 = starts[0];
    const t1 = starts[starts.length - 1] + period;
    const x = (t) => margin.left + ((t - t0) / (t1 - t0)) * plotWidth;
    const barWidth = Math.max(1, (period / (t1 - t0)) * plotWidth * 0.8);

    const root = svg("svg", {
      viewBox: `0 0 ${width} ${height}`, role: "img",
      "aria-label": `Trips, ${currency} fares and tips per ${stats.group_by} in ${stats.tz}`,
    });

    const panels = [
      {
        key: "trips", title: `Trips per ${stats.group_by}`, className: "bar-trips",
        value: (b) => b.trips, format: (v) => count.format(v),
        describe: (b) => `${b.trips} trips (${b.completed} completed, ${b.canceled} canceled)`,
      },
      {
        key: "fare", title: currency ? `Fares per ${stats.group_by}, ${currency}` : "Fares", className: "bar-fare",
        value: (b) => (b.total_fare_minor[currency] ?? 0) / 10 ** digits, format: (v) => money.format(v),
        describe: (b) => `${new Intl.NumberFormat("en-US", { style: "currency", currency: currency || "USD" })
          .format((b.total_fare_minor[currency] ?? 0) / 10 ** digits)} in ${currency}`,
      },
      {
        key: "tips", title: currency ? `Tips per ${stats.group_by}, ${currency}` : "Tips", className: "bar-tips",
        value: (b) => ((b.total_tips_minor ?? {})[currency] ?? 0) / 10 ** digits, format: (v) => money.format(v),
        describe: (b) => {
          const exact = new Intl.NumberFormat("en-US", { style: "currency", currency: currency || "USD" });
          const tips = ((b.total_tips_minor ?? {})[currency] ?? 0) / 10 ** digits;
          const refunds = ((b.total_refunds_minor ?? {})[currency] ?? 0) / 10 ** digits;
          return `${exact.format(tips)} in tips, ${exact.format(refunds)} in refunds (${currency})`;
        },
      },
    ];
    const panelHeight = (height - margin.top - margin.bottom - gap * (panels.length - 1)) / panels.length;

    panels.forEach((panel, index) => {
      const top = margin.top + index * (panelHeight + gap);
      const bottom = top + panelHeight;
      const values = buckets.map(panel.value);
      const scale = ticks(Math.max(...values), 4);
      const max = scale[scale.length - 1];
      const y = (v) => bottom - (v / max) * panelHeight;
      const group = svg("g", { class: `panel panel-${panel.key}` });
      group.append(svg("text", { x: margin.left, y: top - 8, class: "panel-title" }, panel.title));
      const axis = svg("g", { class: "axis y-axis" });
      for (const tick of scale) {
        group.append(svg("line", { x1: margin.left, x2: width - margin.right, y1: y(tick), y2: y(tick), class: "grid-line" }));
        axis.append(svg("text", { x: margin.left - 8, y: y(tick) + 4, "text-anchor": "end" }, panel.format(tick)));
      }
      axis.append(svg("line", { x1: margin.left, x2: margin.left, y1: top, y2: bottom }));
      axis.append(svg("line", { x1: margin.left, x2: width - margin.right, y1: bottom, y2: bottom }));
      group.append(axis);
      buckets.forEach((bucket, i) => {
        const value = values[i];
        const rect = svg("rect", {
          class: `bar ${panel.className}`, x: x(starts[i]), y: y(value), width: barWidth,
          height: bottom - y(value), "data-bucket": bucket.bucket_start, "data-value": value,
        });
        rect.append(svg("title", {}, `${fullFormat.format(starts[i])}: ${panel.describe(bucket)}`));
        group.append(rect);
      });
      root.append(group);
    });

    // Period labels under the lower panel, thinned so they never overlap.
    const labels = svg("g", { class: "axis x-axis" });
    const bottom = height - margin.bottom;
    // Bars sit at their period's start, with gaps for periods without trips, so labels are thinned by distance.
    let lastLabel = -Infinity;
    for (const start of starts) {
      const cx = x(start) + barWidth / 2;
      if (cx - lastLabel < 70) continue;
      lastLabel = cx;
      labels.append(svg("line", { x1: cx, x2: cx, y1: bottom, y2: bottom + 4 }));
      labels.append(svg("text", { x: cx, y: bottom + 17, "text-anchor": "middle" }, labelFormat.format(start)));
    }
    labels.append(svg("text", { x: margin.left + plotWidth / 2, y: height - 4, "text-anchor": "middle" },
      `Period start (${stats.tz})`));
    root.append(labels);
    $("chart").replaceChildren(root);
  }

  // ---- downloads ----

  // Exports are streamed by the server; a bearer token cannot ride on a plain link, so the stream is read
  // with fetch into a Blob (counting bytes as they arrive) and then handed to the browser as a download.
  async function download(format) {
    clearProblem();
    if (!token()) {
      showProblem(new Problem("No token", "Paste an analyst token first."));
      return;
    }
    const accept = format === "csv" ? "text/csv" : "application/x-ndjson";
    const buttons = [$("download-csv"), $("download-ndjson")];
    buttons.forEach((b) => (b.disabled = true));
    const status = $("download-status");
    status.textContent = `Downloading ${format.toUpperCase()}…`;
    try {
      const response = await apiFetch("/v1/trips", filterParams(), accept);
      const reader = response.body.getReader();
      const chunks = [];
      let received = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.length;
        status.textContent = `Downloading ${format.toUpperCase()}… ${formatBytes(received)}`;
      }
      const blob = new Blob(chunks, { type: accept });
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = exportFileName(format);
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
      status.textContent = `Saved ${link.download} (${formatBytes(received)}).`;
    } catch (error) {
      status.textContent = "";
      showProblem(asProblem(error));
    } finally {
      buttons.forEach((b) => (b.disabled = false));
    }
  }

  function exportFileName(format) {
    const params = filterParams();
    const parts = ["trips", params.get("city"), params.get("from"), params.get("to")]
      .filter(Boolean)
      .map((part) => part.replace(/[^A-Za-z0-9_-]+/g, "-"));
    return `${parts.join("_")}.${format}`;
  }

  function formatBytes(bytes) {
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
    return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  }

  $("download-csv").addEventListener("click", () => download("csv"));
  $("download-ndjson").addEventListener("click", () => download("ndjson"));

  // ---- start ----

  fillDatalist("zones", typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"]);
  readURL();
  showTokenStatus();
  reload();
})();

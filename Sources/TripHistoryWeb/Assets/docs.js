// The API reference: renders the service's OpenAPI document (served as JSON next to this script, converted
// once from openapi.yaml by the server) into a page. Every string from the document is inserted as text, never
// as HTML; the small Markdown subset the descriptions use (headings, lists, `code`, **bold**) is built as nodes.
"use strict";

(() => {
  const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
  let spec = null;

  function el(name, attributes, ...children) {
    const element = document.createElement(name);
    for (const [key, value] of Object.entries(attributes ?? {})) {
      if (value !== undefined && value !== null) element.setAttribute(key, String(value));
    }
    for (const child of children) if (child !== undefined && child !== null) element.append(child);
    return element;
  }

  // ---- Markdown subset ----

  function inline(text) {
    const fragment = document.createDocumentFragment();
    for (const part of String(text).split(/(`[^`]+`|\*\*[^*]+\*\*)/)) {
      if (!part) continue;
      if (part.startsWith("`") && part.endsWith("`") && part.length > 1) fragment.append(el("code", {}, part.slice(1, -1)));
      else if (part.startsWith("**") && part.endsWith("**") && part.length > 3) fragment.append(el("strong", {}, part.slice(2, -2)));
      else fragment.append(part);
    }
    return fragment;
  }

  function markdown(text) {
    const container = el("div", { class: "markdown" });
    if (!text) return container;
    const blocks = String(text).replace(/\r/g, "").split(/\n\s*\n/);
    for (const block of blocks) {
      const lines = block.split("\n").filter((line) => line.trim() !== "");
      if (lines.length === 0) continue;
      const heading = /^(#{1,4})\s+(.*)$/.exec(lines[0]);
      if (heading) {
        container.append(el(`h${Math.min(6, heading[1].length + 2)}`, {}, inline(heading[2])));
        lines.shift();
        if (lines.length === 0) continue;
      }
      if (/^\s*-\s/.test(lines[0])) {
        const items = [];
        for (const line of lines) {
          const bullet = /^\s*-\s+(.*)$/.exec(line);
          if (bullet) items.push([bullet[1]]);
          else if (items.length) items[items.length - 1].push(line.trim());
        }
        const list = el("ul", {}, ...items.map((parts) => el("li", {}, inline(parts.join(" ")))));
        container.append(list);
      } else {
        container.append(el("p", {}, inline(lines.map((line) => line.trim()).join(" "))));
      }
    }
    return container;
  }

  // ---- references ----

  function resolve(value) {
    let current = value;
    const seen = new Set();
    while (current && typeof current.$ref === "string" && current.$ref.startsWith("#/")) {
      if (seen.has(current.$ref)) break;
      seen.add(current.$ref);
      current = current.$ref.slice(2).split("/")
        .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
        .reduce((node, key) => (node == null ? undefined : node[key]), spec);
    }
    return current ?? {};
  }

  function refName(ref) {
    return ref.split("/").pop();
  }

  function schemaLink(ref) {
    const name = refName(ref);
    return el("a", { href: `#schema-${name}`, class: "type" }, name);
  }

  // ---- schemas ----

  function typeLabel(schema) {
    if (!schema || typeof schema !== "object") return el("span", { class: "type" }, "any");
    if (schema.$ref) return schemaLink(schema.$ref);
    const parts = [];
    const types = Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type;
    if (types === "array" && schema.items) {
      const span = el("span", { class: "type" }, "array of ");
      span.append(typeLabel(schema.items));
      return span;
    }
    if (types) parts.push(types);
    if (schema.format) parts.push(`(${schema.format})`);
    if (!types && (schema.oneOf || schema.anyOf || schema.allOf)) parts.push(schema.oneOf ? "one of" : schema.anyOf ? "any of" : "all of");
    if (!types && !parts.length && schema.properties) parts.push("object");
    return el("span", { class: "type" }, parts.join(" ") || "any");
  }

  function constraints(schema) {
    const notes = [];
    if (schema.enum) notes.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`);
    if (schema.const !== undefined) notes.push(`always ${JSON.stringify(schema.const)}`);
    if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
    if (schema.minimum !== undefined) notes.push(`≥ ${schema.minimum}`);
    if (schema.maximum !== undefined) notes.push(`≤ ${schema.maximum}`);
    if (schema.minLength !== undefined) notes.push(`length ≥ ${schema.minLength}`);
    if (schema.maxLength !== undefined) notes.push(`length ≤ ${schema.maxLength}`);
    if (schema.pattern) notes.push(`pattern ${schema.pattern}`);
    if (schema.examples) notes.push(`e.g. ${schema.examples.map((v) => JSON.stringify(v)).join(", ")}`);
    if (schema.example !== undefined) notes.push(`e.g. ${JSON.stringify(schema.example)}`);
    return notes.length ? el("span", { class: "hint" }, ` ${notes.join("; ")}`) : null;
  }

  // The schema's members, one level; inline objects and alternatives nest, named schemas are links.
  function schemaBody(schema, depth) {
    const box = el("div", { class: "schema" });
    if (!schema || typeof schema !== "object" || depth > 6) return box;
    if (schema.$ref) {
      box.append(typeLabel(schema));
      return box;
    }
    if (schema.description && depth > 0) box.append(markdown(schema.description));
    const required = new Set(schema.required ?? []);
    for (const [name, member] of Object.entries(schema.properties ?? {})) {
      const line = el("div", { class: "prop" }, el("code", {}, name), " ", typeLabel(member));
      if (required.has(name)) line.append(" ", el("span", { class: "required" }, "required"));
      const notes = constraints(member);
      if (notes) line.append(notes);
      if (member.description) line.append(markdown(member.description));
      if (!member.$ref && (member.properties || member.oneOf || member.anyOf || member.allOf)) {
        line.append(schemaBody(member, depth + 1));
      } else if (member.type === "array" && member.items && !member.items.$ref && member.items.properties) {
        line.append(schemaBody(member.items, depth + 1));
      }
      box.append(line);
    }
    for (const keyword of ["oneOf", "anyOf", "allOf"]) {
      if (!schema[keyword]) continue;
      const list = el("ul");
      for (const alternative of schema[keyword]) {
        const item = el("li", {}, typeLabel(alternative));
        const notes = constraints(alternative);
        if (notes) item.append(notes);
        if (!alternative.$ref && alternative.properties) item.append(schemaBody(alternative, depth + 1));
        list.append(item);
      }
      box.append(el("div", {}, `${keyword}:`), list);
    }
    if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
      box.append(el("div", { class: "prop" }, "each other member: ", typeLabel(schema.additionalProperties)));
    }
    return box;
  }

  function schemaSummary(schema) {
    const line = el("div", { class: "prop" }, "Schema: ", typeLabel(schema));
    const resolved = schema?.$ref ? null : schema;
    if (resolved) {
      const notes = constraints(resolved);
      if (notes) line.append(notes);
    }
    const wrap = el("div", {}, line);
    if (resolved?.description) wrap.append(markdown(resolved.description));
    if (resolved && (resolved.properties || resolved.oneOf || resolved.anyOf || resolved.allOf)) wrap.append(schemaBody(resolved, 1));
    return wrap;
  }

  // ---- examples ----

  function exampleBlock(name, example) {
    const resolved = resolve(example);
    const value = resolved.value !== undefined ? resolved.value : resolved.externalValue ?? resolved;
    const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
    const label = [name, resolved.summary].filter(Boolean).join(": ");
    return el("details", { class: "example" }, el("summary", {}, `Example ${label}`), el("pre", {}, text));
  }

  function examplesOf(holder) {
    const blocks = [];
    if (holder.example !== undefined) blocks.push(exampleBlock("", { value: holder.example }));
    for (const [name, example] of Object.entries(holder.examples ?? {})) blocks.push(exampleBlock(name, example));
    return blocks;
  }

  function contentBlock(content) {
    const wrap = el("div");
    for (const [type, media] of Object.entries(content ?? {})) {
      wrap.append(el("h4", {}, el("code", {}, type)));
      if (media.schema) wrap.append(schemaSummary(media.schema));
      wrap.append(...examplesOf(media));
    }
    return wrap;
  }

  // ---- operations ----

  function parameterTable(parameters) {
    const body = el("tbody");
    for (const raw of parameters) {
      const parameter = resolve(raw);
      const description = el("td", {}, markdown(parameter.description));
      const notes = parameter.schema ? constraints(resolve(parameter.schema)) : null;
      if (notes) description.append(notes);
      const examples = examplesOf(parameter);
      if (examples.length) description.append(...examples);
      body.append(el("tr", { class: "parameter", "data-name": parameter.name },
        el("td", {}, el("code", {}, parameter.name), parameter.required ? el("div", { class: "required" }, "required") : null),
        el("td", {}, parameter.in),
        el("td", {}, parameter.schema ? typeLabel(parameter.schema) : ""),
        description));
    }
    return el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Name"), el("th", {}, "In"), el("th", {}, "Type"),
      el("th", {}, "Description"))), body);
  }

  function responseBlock(status, raw) {
    const response = resolve(raw);
    const block = el("div", { class: "response", "data-status": status });
    block.append(el("h4", {}, el("span", { class: "status-code" }, status), " ", inline(firstLine(response.description))));
    const rest = restOfDescription(response.description);
    if (rest) block.append(markdown(rest));
    const headers = Object.entries(response.headers ?? {});
    if (headers.length) {
      const rows = headers.map(([name, header]) => {
        const resolved = resolve(header);
        return el("tr", {}, el("td", {}, el("code", {}, name), resolved.required ? el("div", { class: "required" }, "required") : null),
          el("td", {}, resolved.schema ? typeLabel(resolved.schema) : ""), el("td", {}, markdown(resolved.description)));
      });
      block.append(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Header"), el("th", {}, "Type"), el("th", {}, "Description"))),
        el("tbody", {}, ...rows)));
    }
    block.append(contentBlock(response.content));
    return block;
  }

  function firstLine(text) {
    return String(text ?? "").split("\n")[0];
  }

  function restOfDescription(text) {
    return String(text ?? "").split("\n").slice(1).join("\n").trim();
  }

  function operationSection(path, method, operation, pathItem) {
    const id = operation.operationId || `${method}-${path}`;
    const section = el("section", { class: "operation", id, "data-method": method.toUpperCase(), "data-path": path });
    section.append(el("h2", {}, el("span", { class: `method ${method}` }, method), path));
    if (operation.summary) section.append(el("p", { class: "summary" }, inline(operation.summary)));
    section.append(markdown(operation.description));
    const security = operation.security ?? spec.security;
    section.append(el("p", { class: "hint" }, security && security.length && Object.keys(security[0]).length
      ? "Needs a bearer token." : "No token needed."));
    const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])];
    if (parameters.length) section.append(el("h3", {}, "Parameters"), parameterTable(parameters));
    if (operation.requestBody) {
      const body = resolve(operation.requestBody);
      section.append(el("h3", {}, "Request body"), markdown(body.description), contentBlock(body.content));
    }
    section.append(el("h3", {}, "Responses"));
    for (const [status, response] of Object.entries(operation.responses ?? {})) section.append(responseBlock(status, response));
    return section;
  }

  function render() {
    const main = document.getElementById("reference");
    const toc = document.getElementById("toc");
    const info = spec.info ?? {};
    const intro = el("section", { class: "intro" }, el("h1", {}, info.title ?? "API"),
      el("p", { class: "hint" }, `Version ${info.version ?? "?"} · OpenAPI ${spec.openapi ?? "?"} · `,
        el("a", { href: "/openapi.yaml" }, "openapi.yaml")));
    if (info.summary) intro.append(el("p", { class: "summary" }, inline(info.summary)));
    intro.append(markdown(info.description));
    for (const server of spec.servers ?? []) intro.append(el("p", {}, "Server: ", el("code", {}, server.url), " ", inline(server.description ?? "")));
    const content = [intro];

    const operations = [];
    for (const [path, item] of Object.entries(spec.paths ?? {})) {
      for (const method of METHODS) if (item[method]) operations.push({ path, method, operation: item[method], item });
    }
    const tags = (spec.tags ?? []).map((tag) => tag.name);
    for (const { operation } of operations) for (const tag of operation.tags ?? ["other"]) if (!tags.includes(tag)) tags.push(tag);

    const tocChildren = [el("h3", {}, "Overview"), el("a", { href: "#top" }, info.title ?? "API")];
    for (const tag of tags) {
      const members = operations.filter(({ operation }) => (operation.tags ?? ["other"])[0] === tag);
      if (!members.length) continue;
      const description = (spec.tags ?? []).find((t) => t.name === tag)?.description;
      content.push(el("h2", { class: "tag", id: `tag-${tag}` }, tag), description ? el("p", { class: "hint" }, inline(description)) : null);
      tocChildren.push(el("h3", {}, tag));
      for (const { path, method, operation, item } of members) {
        const section = operationSection(path, method, operation, item);
        content.push(section);
        tocChildren.push(el("a", { href: `#${section.id}` }, el("span", { class: `method ${method}` }, method), " ", path));
      }
    }

    // Each problem code at /docs#problem-{code}: where a problem's `type` URN and its `Link` field lead.
    const codes = spec.components?.schemas?.ProblemCode;
    if (codes?.enum?.length) {
      const section = el("section", { id: "problems" }, el("h2", {}, "Problem types"),
        el("p", { class: "hint" }, "Every error is an RFC 9457 problem; its ", el("code", {}, "type"), " is ",
          el("code", {}, "urn:trip-history:problem:{code}"), " and its ", el("code", {}, "Link"),
          " field names the entry here."));
      tocChildren.push(el("h3", {}, "Problem types"));
      codes.enum.forEach((code, index) => {
        section.append(el("div", { id: `problem-${code}`, class: "problem-type", "data-code": code },
          el("h4", {}, code), el("p", {}, el("code", {}, `urn:trip-history:problem:${code}`)),
          markdown((codes["x-enum-descriptions"] ?? [])[index])));
        tocChildren.push(el("a", { href: `#problem-${code}` }, code));
      });
      content.push(section);
    }

    const schemas = Object.entries(spec.components?.schemas ?? {});
    if (schemas.length) {
      const section = el("section", { id: "schemas" }, el("h2", {}, "Schemas"));
      tocChildren.push(el("h3", {}, "Schemas"));
      for (const [name, schema] of schemas) {
        section.append(el("div", { id: `schema-${name}`, class: "schema-def" },
          el("h4", {}, name, " ", typeLabel({ ...schema, $ref: undefined })), markdown(schema.description), schemaBody(schema, 0)));
        tocChildren.push(el("a", { href: `#schema-${name}` }, name));
      }
      content.push(section);
    }

    intro.id = "top";
    main.replaceChildren(...content.filter(Boolean));
    toc.replaceChildren(...tocChildren);
    main.setAttribute("aria-busy", "false");
    if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  }

  async function start() {
    const main = document.getElementById("reference");
    try {
      const response = await fetch(document.body.dataset.spec);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      spec = await response.json();
      render();
    } catch (error) {
      main.setAttribute("aria-busy", "false");
      main.replaceChildren(el("div", { class: "problem", role: "alert" }, el("strong", {}, "The API description could not be loaded. "),
        String(error.message || error)));
    }
  }

  start();
})();

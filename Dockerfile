# Tidepool for a team: the package built from this clone, with the PostgreSQL driver, serving MCP (/mcp), REST (/v1)
# and the dashboard (/) on port 7077. See docs/scaling.md, "Docker".
FROM node:20-bookworm-slim AS build
# better-sqlite3 compiles SQLite when no prebuilt binary can be downloaded for the platform.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm pack --ignore-scripts --pack-destination /pkg

FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
 && mkdir /app && cd /app && echo '{"name":"tidepool-server","private":true}' > package.json
WORKDIR /app
COPY --from=build /pkg/*.tgz /tmp/
RUN npm install --omit=dev --no-audit --no-fund /tmp/tidepool-memory-*.tgz pg@^8.23.0 \
 && rm /tmp/*.tgz && apt-get purge -y python3 make g++ && apt-get autoremove -y && rm -rf /var/lib/apt/lists/* /root/.npm \
 && mkdir /data && chown node:node /data
ENV PATH=/app/node_modules/.bin:$PATH \
    TIDEPOOL_CONFIG=/data/config.json \
    TIDEPOOL_DB=/data/memory.db
VOLUME /data
EXPOSE 7077
USER node
# Beyond loopback every request needs a token: create one first (see docs/scaling.md), or the server refuses to start.
CMD ["tidepool", "serve", "--http", "--host", "0.0.0.0", "--port", "7077"]

# syntax=docker/dockerfile:1
# Graph design service: one image for every process.
#   default command   gateway + worker in one process (services/launcher)
#   API only          node dist/services/gateway/main.js
#   worker only       node dist/services/worker/main.js
#   operator CLI      node dist/tools/graphctl/main.js keys create --user alice --scopes graph:write
# Configuration comes from the environment only (shared/config/config.ts); HOST
# defaults to 0.0.0.0 here so the port is reachable from outside the container.

# --- build: compile TypeScript with tsc (tsconfig.build.json) -----------------------
FROM node:24-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY shared ./shared
COPY services ./services
COPY tools ./tools
COPY openapi ./openapi
# scripts/copy-statements.sh, run by npm run build: the store statements beside the
# compiled store modules that read them (services/*/store/statements/*.cypher)
COPY scripts/copy-statements.sh ./scripts/
# The compiled code finds the OpenAPI document and package.json two levels above
# dist/services/<name>/, i.e. in dist/.
RUN npm run build && cp -r openapi package.json dist/
# The web viewer at /app: bundled by esbuild; the compiled gateway finds it in dist/web/dist.
COPY web ./web
RUN npx tsx web/build.ts && mkdir -p dist/web && cp -r web/dist dist/web/dist

# --- production dependencies only -------------------------------------------------
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force

# --- runtime: non-root, no compiler, no dev dependencies ---------------------------
FROM node:24-slim AS runtime
ENV HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/dist ./dist
USER node
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/services/launcher/main.js"]

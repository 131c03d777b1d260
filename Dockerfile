# Multi-stage image: build with dev dependencies, run with production ones only.
# BASE_IMAGE: a Node image with npm; scripts/production-image.sh passes a locally made stand-in
# where no registry can be reached.
ARG BASE_IMAGE=node:22-slim

FROM ${BASE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build

# Production dependencies: the installed tree minus the dev ones (no second download).
FROM deps AS prod-deps
RUN npm prune --omit=dev --no-audit --no-fund

FROM ${BASE_IMAGE}
# V8's heap is sized for a 512 MiB machine: without a limit it grows to ~700 MB under load and
# keeps it (see docs/deploying.md, "Memory and machine size"). Raise it with the machine (about half its memory), e.g. with
# `docker run -e NODE_OPTIONS=--max-old-space-size=512` on 1 GiB.
ENV NODE_ENV=production PORT=3000 PGLITE_DIR=/data/pglite NODE_OPTIONS=--max-old-space-size=256
WORKDIR /app
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --chown=node:node package.json ./
COPY --chown=node:node drizzle ./drizzle
COPY --chown=node:node public ./public
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/_agent-native/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# One plain node process running the compiled server (npm run build bundles it): no npm, sh or
# tsx in front of it. It applies pending migrations at start (under an advisory lock, so several
# instances may start at once); `node build/migrate.js` does only that, for release commands.
CMD ["node", "build/server/index.js"]

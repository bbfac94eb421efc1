# One image for every app; the command picks the process (see docker-compose.yml).
# Three stages: the build (dev dependencies, swc, the generated Prisma client), the production
# dependencies alone, and the runtime image that takes only dist/, those dependencies and what the
# migration runner reads. No compiler, test tool or type package ships in the image.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY tools ./tools
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm install --no-audit --no-fund --include=dev
COPY . .
RUN node tools/prisma-generate.mjs && node tools/build.mjs

FROM node:20-bookworm-slim AS production-dependencies
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# The postinstall script (tools/prisma-generate.mjs) does nothing without the prisma CLI, a dev
# dependency: the generated client comes compiled in dist/ from the build stage.
COPY tools/prisma-generate.mjs ./tools/
RUN npm install --no-audit --no-fund --omit=dev && npm cache clean --force

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/dist ./dist
# The migrate service runs `node tools/migrate.mjs deploy`: the runner, its library and the migrations.
COPY tools/migrate.mjs tools/migrate-lib.mjs ./tools/
COPY prisma ./prisma
# The local object store's directory, owned by the app's user: a new volume mounted there inherits it.
RUN mkdir -p data/objects && chown node:node data/objects
USER node
CMD ["node", "dist/apps/gateway/src/main.js"]

# One image for every app; the command picks the process (see docker-compose.yml).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY tools ./tools
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm install --no-audit --no-fund --include=dev
COPY . .
RUN node tools/prisma-generate.mjs && node tools/build.mjs
# The local object store's directory, owned by the app's user: a new volume mounted there inherits it.
RUN mkdir -p data/objects && chown node:node data/objects
USER node
CMD ["node", "dist/apps/gateway/src/main.js"]

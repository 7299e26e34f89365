# The portal as a container: builds the browser assets, then runs main.ts.
# Data (Deno KV, the token secret) lives in /data; mount a volume there.
FROM denoland/deno:2.9.6

WORKDIR /app
COPY deno.json deno.lock ./
COPY . .
RUN deno install --frozen && deno run -A scripts/build.ts

ENV PORT=8000 DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 8000
USER deno
CMD ["run", "-A", "main.ts"]

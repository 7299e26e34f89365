# The portal as a container: builds the browser assets, then runs main.ts as the unprivileged
# user `deno` with only the permissions it needs. Data (Deno KV, telemetry, the token secret,
# the CA) lives in /data, owned by `deno`; mount a volume there.
FROM denoland/deno:2.9.6

WORKDIR /app
COPY deno.json deno.lock ./
COPY . .
RUN deno install --frozen && deno run -A scripts/build.ts \
  && mkdir -p /data && chown deno:deno /data && chmod 0700 /data

ENV PORT=8000 DATA_DIR=/data HOSTNAME=0.0.0.0
VOLUME ["/data"]
EXPOSE 8000 1883 8883
USER deno
CMD ["run", "--v8-flags=--heap-growing-percent=30", "--allow-net", "--allow-env", "--allow-sys=hostname", "--allow-read=/app,/data", "--allow-write=/data", "main.ts"]

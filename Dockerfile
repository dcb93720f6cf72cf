# A small image that runs the Fivefold bot as a non-root user, its database on a volume.
#   docker build -t fivefold .
#   docker run -d --name fivefold --env-file .env -v fivefold-data:/data fivefold
#
# The database is always /data/fivefold.db, on the volume, whatever .env says: the
# entrypoint sets DATABASE_PATH after --env-file and -e have been applied (.env.example's
# DATABASE_PATH=fivefold.db would otherwise put it inside the container, gone with it).

FROM python:3.11-slim AS build
WORKDIR /src
# The dependencies first, in a layer of their own: a code change does not reinstall them.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
    && pip install --no-cache-dir --prefix=/deps -r requirements.txt
# Then Fivefold itself, without its dependencies.
COPY README.md LICENSE ./
COPY games ./games
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir --no-deps --prefix=/app .

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 fivefold \
    && mkdir /data && chown fivefold:fivefold /data
COPY --from=build /deps /usr/local
COPY --from=build /app /usr/local
ENV PYTHONUNBUFFERED=1 \
    HEALTH_FILE=/tmp/fivefold-alive
VOLUME ["/data"]
USER fivefold
WORKDIR /data
STOPSIGNAL SIGTERM
# Healthy while connected to Discord: the bot touches HEALTH_FILE every 30 s.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["fivefold-health"]
ENTRYPOINT ["/usr/bin/env", "DATABASE_PATH=/data/fivefold.db"]
CMD ["fivefold"]

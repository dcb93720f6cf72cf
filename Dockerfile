# A small image that runs the Fivefold bot as a non-root user, its database on a volume.
#   docker build -t fivefold .
#   docker run --env-file .env -v fivefold-data:/data fivefold
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY games ./games
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir --prefix=/install .

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 fivefold \
    && mkdir /data && chown fivefold:fivefold /data
COPY --from=build /install /usr/local
ENV DATABASE_PATH=/data/fivefold.db \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
USER fivefold
WORKDIR /home/fivefold
STOPSIGNAL SIGTERM
CMD ["fivefold"]

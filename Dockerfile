# A small image that runs Fivefold as a non-root user, with its database on a volume.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY games ./games
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir --prefix=/install .

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 fivefold \
    && mkdir /data && chown fivefold:fivefold /data
COPY --from=build /install /usr/local
USER fivefold
WORKDIR /home/fivefold
ENV DATABASE_PATH=/data/fivefold.db \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
CMD ["fivefold"]

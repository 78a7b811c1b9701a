#!/usr/bin/env python3
"""Sends COUNT requests on one kept-alive HTTP/1.1 connection to 127.0.0.1:PORT and checks each is 200.
  keepalive-client.py PORT METHOD PATH BODYFILE|'' COUNT   (the demo integrator's TEST-ONLY token)"""
import http.client
import sys

port, method, path, body_file, count = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
body = open(body_file, "rb").read() if body_file else None
headers = {"Authorization": "Bearer demo-integrator-token-TEST-ONLY"}
if body:
    headers["Content-Type"] = "application/json"
connection = http.client.HTTPConnection("127.0.0.1", int(port))
for _ in range(count):
    connection.request(method, path, body=body, headers=headers)
    answer = connection.getresponse()
    answer.read()
    if answer.status != 200:
        sys.exit(f"{method} {path}: {answer.status}")
connection.close()
print(count)

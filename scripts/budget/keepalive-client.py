#!/usr/bin/env python3
"""Sends COUNT requests on one kept-alive HTTP/1.1 connection to 127.0.0.1:PORT and checks each is 200.
  keepalive-client.py PORT METHOD PATH BODYFILE|'' COUNT   (the demo integrator's TEST-ONLY token)"""
import argparse
import http.client
import sys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("port", metavar="PORT", type=int)
    parser.add_argument("method", metavar="METHOD")
    parser.add_argument("path", metavar="PATH")
    parser.add_argument("body_file", metavar="BODYFILE", help="the request body, or '' for none")
    parser.add_argument("count", metavar="COUNT", type=int)
    # argparse reports missing arguments before unknown options: name an unknown option first, and never take a word
    # that looks like one as a value.
    for argument in sys.argv[1:]:
        if argument.startswith("-") and argument not in ("-h", "--help"):
            parser.error(f"unknown option {argument!r} (see --help)")
    arguments = parser.parse_args()
    method, path, count = arguments.method, arguments.path, arguments.count
    body = open(arguments.body_file, "rb").read() if arguments.body_file else None
    headers = {"Authorization": "Bearer demo-integrator-token-TEST-ONLY"}
    if body:
        headers["Content-Type"] = "application/json"
    connection = http.client.HTTPConnection("127.0.0.1", arguments.port)
    for _ in range(count):
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        answer.read()
        if answer.status != 200:
            sys.exit(f"{method} {path}: {answer.status}")
    connection.close()
    print(count)


if __name__ == "__main__":
    main()

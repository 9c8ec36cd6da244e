#!/usr/bin/python3

import torch
import time

a = torch.rand(1, 1,dtype=torch.float32)
start_time = time.time()
a = a.repeat(1,32000)
print("cpu repeate cost ", time.time() - start_time, "s")

a=torch.rand(1, 1,dtype=torch.float32, device = 'cuda')
start_time = time.time()
a = a.repeat(1,32000)
print("cuda repeate cost ", time.time() - start_time, "s")

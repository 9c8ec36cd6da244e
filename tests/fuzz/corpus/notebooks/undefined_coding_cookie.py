# -*- coding: utf-42 -*-
import torch
x = torch.zeros(1).cuda()
